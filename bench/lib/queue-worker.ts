/**
 * A queue worker in its own process: `fork('queue-worker.js')` with REDIS_PORT, QUEUE and BASE_URL in its
 * environment (QUEUE is its key prefix too), LOCK_MS and CONCURRENCY when given. It reports `{ ready: true }` once it takes jobs. With HANG=1 (the
 * crash-recovery measurement) its `lookup` tool never returns: it reports `{ hung: true }` to the parent and waits
 * there to be killed; with BLOCK_MS it first blocks the event loop that long, then reports `{ unblocked: true }`;
 * otherwise it is the benchmarks' cheap lookup.
 */
import OpenAI from 'openai';
import { AgentRuns } from '../../src/bullmq';
import { lookupDefinition, lookupSchema } from './lookup-tool';

const runs = new AgentRuns({
  connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) },
  queueName: process.env.QUEUE,
  prefix: process.env.QUEUE,
});
const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: 'bench', maxRetries: 0 });
const hang = {
  schema: lookupSchema,
  execute: async () => {
    process.send?.({ hung: true });
    return new Promise<never>(() => undefined);
  },
};
/** With BLOCK_MS, the lookup holds the event loop that long first (a tool doing CPU work on the main thread). */
const block = {
  schema: lookupSchema,
  execute: async () => {
    const until = Date.now() + Number(process.env.BLOCK_MS);
    while (Date.now() < until);
    process.send?.({ unblocked: true });
    return { response: 'blocked' };
  },
};
const tool = process.env.HANG === '1' ? hang : process.env.BLOCK_MS ? block : lookupDefinition(64);
void runs
  .worker({
    concurrency: Number(process.env.CONCURRENCY ?? 1),
    ...(process.env.LOCK_MS ? { lockDuration: Number(process.env.LOCK_MS) } : {}),
    setup: async () => ({ client, tools: [tool], maxConsecutiveToolTurns: 0 }),
  })
  .waitUntilReady()
  .then(() => process.send?.({ ready: true }));
