// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import OpenAI from 'openai';
import { startScriptedServer } from '../../src/testing';
import { demoScript } from '../demo/scripted-model';
import { AppModule } from './app.module';

/**
 * `npm run demo:nest`, then `curl -N "http://127.0.0.1:3000/agent/stream?prompt=Weather%20in%20Rome"`.
 * Uses OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL when set, else the embedded scripted model
 * (which answers one request per script, so restart it between requests).
 */
async function bootstrap(): Promise<void> {
  const embedded = process.env.OPENAI_API_KEY
    ? undefined
    : await startScriptedServer({ turns: demoScript('add a to-do to pack an umbrella') });
  const client = embedded ? embedded.client() : new OpenAI();
  const model = embedded ? 'scripted-demo-model' : (process.env.OPENAI_MODEL ?? 'gpt-4o-mini');
  const app = await NestFactory.create(AppModule.register({ client, model }));
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`agentcall NestJS sample on ${await app.getUrl()} (${embedded ? 'embedded scripted model' : model})`);
}

void bootstrap();
