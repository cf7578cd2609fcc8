/**
 * Question: with every setting of the queue at its default, how long after a worker is SIGKILLed does another
 * worker take its run on, and how long must a tool block the event loop before its call runs a second time?
 * Recovery: a worker process holding a run in a tool call is SIGKILLed; the clock runs until a worker in this
 * process claims the run (its `running` event of attempt 2). Blocking: a worker process's tool holds its event loop
 * for a given time while a worker in this process is ready; the call ran twice when this process's worker ran it
 * too. Each block length is tried several times: where in the lock's renewal cycle the block starts decides it.
 * Budget (DESIGN §24): recovery at most 10 s; the shortest block that runs a call twice is documented beside it.
 *
 * npx tsc -p tsconfig.bench.json && node .bench/bench/queued-recovery.js   (BLOCKS= for the recovery alone)
 */
import OpenAI from 'openai';
import { AgentRuns } from '../src/bullmq';
import { forkQueueWorker } from './lib/fork-queue-worker';
import { median, startBenchServer } from './lib/harness';
import { lookupSchema } from './lib/lookup-tool';
import { startRedisServer } from './lib/redis-server';

const CRASHES = Number(process.env.CRASHES ?? 5);
/** Block lengths tried, in ms, and how many times each; `BLOCKS=` (empty) times the recovery alone. */
const BLOCKS = (process.env.BLOCKS ?? '3000,3500,4000,4500,5000,5500,6000').split(',').filter(Boolean).map(Number);
const TRIES = Number(process.env.TRIES ?? 3);

type Connection = { host: string; port: number };

export async function queuedRecovery(): Promise<void> {
  const server = await startBenchServer();
  const redis = await startRedisServer();
  const connection = { host: '127.0.0.1', port: redis.port };
  const baseURL = server.client.baseURL;
  try {
    const times: number[] = [];
    for (let i = 0; i < CRASHES; i++) times.push(await recovery(connection, baseURL, `recovery-${i}`));
    console.log(
      `SIGKILL to another worker's claim, defaults: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
    let count = 0;
    for (const blockMs of BLOCKS) {
      const twice: boolean[] = [];
      for (let i = 0; i < TRIES; i++) twice.push(await blockedTwice(connection, baseURL, `block-${count++}`, blockMs));
      console.log(
        `event loop blocked ${blockMs} ms in a tool: call ran twice in ${twice.filter(Boolean).length}/${TRIES}`,
      );
    }
    console.log(`node ${process.version}`);
  } finally {
    server.stop();
    redis.stop();
  }
}

/** A worker process hangs in its first tool call and is SIGKILLed: ms until this process's worker claims the run. */
async function recovery(connection: Connection, baseURL: string, queueName: string): Promise<number> {
  const runs = new AgentRuns({ connection, queueName, prefix: queueName });
  const { child, message } = forkQueueWorker({
    REDIS_PORT: String(connection.port),
    QUEUE: queueName,
    BASE_URL: baseURL,
    HANG: '1',
  });
  try {
    await message('ready');
    const hung = message('hung');
    const { runId } = await runs.start({ body: { model: 'bench-1-1', messages: [{ role: 'user', content: 'go' }] } });
    await hung;
    const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
    const lookup = { schema: lookupSchema, execute: async () => ({ response: 'found' }) };
    await runs.worker({ setup: async () => ({ client, tools: [lookup] }) }).waitUntilReady();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const killedAt = performance.now();
    child.kill('SIGKILL');
    await exited;
    for await (const event of runs.events(runId))
      if (event.type === 'status' && event.status === 'running' && (event.attempt ?? 1) > 1) break;
    const took = performance.now() - killedAt;
    const record = await runs.wait(runId, { timeoutMs: 60_000 });
    if (record.status !== 'completed') throw new Error(`recovered run ${runId}: ${record.status}`);
    return took;
  } finally {
    child.kill('SIGKILL');
    await runs.close();
  }
}

/** Whether a call whose tool blocks its worker's event loop for `blockMs` also ran on this process's worker. */
async function blockedTwice(
  connection: Connection,
  baseURL: string,
  queueName: string,
  blockMs: number,
): Promise<boolean> {
  const runs = new AgentRuns({ connection, queueName, prefix: queueName });
  const { child, message } = forkQueueWorker({
    REDIS_PORT: String(connection.port),
    QUEUE: queueName,
    BASE_URL: baseURL,
    BLOCK_MS: String(blockMs),
  });
  let ranHere = 0;
  try {
    await message('ready');
    const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
    const lookup = { schema: lookupSchema, execute: async () => ({ response: String(++ranHere) }) };
    const unblocked = message('unblocked');
    const { runId } = await runs.start({ body: { model: 'bench-1-1', messages: [{ role: 'user', content: 'go' }] } });
    // The run is the process's before this worker is ready: it can only take it from a blocked lock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await runs.worker({ setup: async () => ({ client, tools: [lookup] }) }).waitUntilReady();
    await unblocked;
    await runs.wait(runId, { timeoutMs: 60_000 });
    // A stalled job moved to another worker may still be running there.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return ranHere > 0;
  } finally {
    child.kill('SIGKILL');
    await runs.close();
  }
}

if (require.main === module) void queuedRecovery();
