// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import OpenAI from 'openai';
import { QueuedAppModule } from './queued-app.module';

/**
 * The queued mode, one process per command (same REDIS_URL and RUNS_SECRET everywhere):
 *   WORKER=1 PORT=3000 node .demo/samples/nestjs-app/main-queued.js
 *   PORT=3001 node .demo/samples/nestjs-app/main-queued.js                  (API only)
 *   curl -X POST localhost:3001/runs -H 'content-type: application/json' -d '{"prompt":"Refund order A1"}'
 *   curl -N localhost:3000/runs/<runId>/events
 *   curl localhost:3001/runs/<runId>/resume-token -H 'x-user: ada' -H 'x-role: admin'
 *   curl -X POST localhost:3001/runs/<runId>/decisions -H 'content-type: application/json' \
 *     -d '{"decisions":{"<callId>":{"approve":true}},"token":"<token from /resume-token>"}'
 *
 * RUNS_SECRET signs resume tokens. There is no default: without it each process makes one of its own at start
 * (and says so), which is fine for one process; with several, set the same long random value in each
 * (`openssl rand -base64 32`).
 */
async function bootstrap(): Promise<void> {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  let secret = process.env.RUNS_SECRET;
  if (!secret) {
    secret = randomBytes(32).toString('base64url');
    console.warn('RUNS_SECRET is not set: made one for this process; other processes cannot take its decisions.');
  }
  const app = await NestFactory.create(
    QueuedAppModule.register({
      connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null },
      client: new OpenAI(),
      model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
      secret,
      worker: process.env.WORKER === '1',
    }),
  );
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`agentcall queued sample on ${await app.getUrl()}`);
}

void bootstrap();
