/**
 * A queue worker in its own process, for the crash-recovery measurement: `fork('queue-worker.js')` with REDIS_PORT,
 * QUEUE, BASE_URL and LOCK_MS in its environment. Its `lookup` tool never returns: it reports `{ hung: runId }` to
 * the parent and waits there to be killed.
 */
import OpenAI from 'openai';
import { AgentRuns } from '../../src/bullmq';
import { lookupSchema } from './lookup-tool';

const runs = new AgentRuns({
  connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) },
  queueName: process.env.QUEUE,
});
const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: 'bench', maxRetries: 0 });
const hang = {
  schema: lookupSchema,
  execute: async ({ messages }: { messages: unknown[] }) => {
    process.send?.({ hung: messages.length });
    return new Promise<never>(() => undefined);
  },
};
void runs
  .worker({ lockDuration: Number(process.env.LOCK_MS), setup: async () => ({ client, tools: [hang] }) })
  .waitUntilReady()
  .then(() => process.send?.({ ready: true }));
