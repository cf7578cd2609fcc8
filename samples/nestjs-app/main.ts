// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { createApp } from './create-app';

/**
 * `npm run demo:nest`, then `curl -N "http://127.0.0.1:3000/agent/stream?prompt=Weather%20in%20Rome"`.
 * `curl "http://127.0.0.1:3000/agent/report?city=Rome"` answers a typed weather report (a `WeatherReportDto`).
 * Uses OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL when set, else the embedded scripted model, which gives
 * every request a scripted conversation of its own about the city in its prompt.
 */
async function bootstrap(): Promise<void> {
  const keyless = !process.env.OPENAI_API_KEY;
  const app = await createApp({ keyless });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  const model = keyless ? 'embedded scripted model' : (process.env.OPENAI_MODEL ?? 'gpt-4o-mini');
  console.log(`agentcall NestJS sample on ${await app.getUrl()} (${model})`);
}

void bootstrap();
