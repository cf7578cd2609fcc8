import { AgentRuns } from '../../src/bullmq';
import { runAgentLoop } from '../../src/run-agent-loop';
import { startBareQueue } from './bare-queue';
import { startSplitQueue, type SplitQueue } from './fork-queue-worker';
import type { BenchServer } from './harness';
import { lookupDefinition } from './lookup-tool';
import { queuedRun } from './queued-run';

/** Turns of the queue benchmarks' run: a `lookup` call on each but the last, then the answer. */
export const QUEUE_RUN_TURNS = 4;

/** The queue benchmarks' run, and each way of running it they compare; `close` stops what was started. */
export type QueueSides = {
  model: string;
  tools: ReturnType<typeof lookupDefinition>[];
  messages: { role: 'user'; content: string }[];
  /** The queue whose worker runs in this process. */
  runs: AgentRuns;
  split: SplitQueue;
  inProcess: () => Promise<unknown>;
  queued: () => Promise<void>;
  /** The floor: the queue a team would write by hand over bare BullMQ (`bare-queue.ts`). */
  bare: () => Promise<void>;
  /** The same queue with its worker in a process of its own. */
  splitQueued: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Start the queues the queue benchmarks compare, on queues named `name`, `name-split` and `name-bare`, each worker
 * at `concurrency`; each queued run is checked to have completed after {@link QUEUE_RUN_TURNS} turns.
 */
export async function startQueueSides(
  server: BenchServer,
  connection: { host: string; port: number },
  name: string,
  concurrency: number,
): Promise<QueueSides> {
  const model = `bench-${QUEUE_RUN_TURNS - 1}-1`;
  const tools = [lookupDefinition(64)];
  const messages = [{ role: 'user' as const, content: 'Look things up.' }];
  // Each queue under a prefix of its own, as two apps sharing a Redis would be: under one, each would also hear the
  // other's settle messages.
  const runs = new AgentRuns({ connection, queueName: name, prefix: name });
  await runs
    .worker({ concurrency, setup: async () => ({ client: server.client, tools, maxConsecutiveToolTurns: 0 }) })
    .waitUntilReady();
  const split = await startSplitQueue(connection, server.client.baseURL, `${name}-split`, concurrency);
  const bare = await startBareQueue(connection, `${name}-bare`, concurrency, {
    client: server.client,
    tools,
    model,
    messages,
  });
  const body = { model, messages };
  return {
    model,
    tools,
    messages,
    runs,
    split,
    inProcess: () => runAgentLoop({ client: server.client, body, tools, maxConsecutiveToolTurns: 0 }),
    queued: () => queuedRun(runs, body, QUEUE_RUN_TURNS),
    bare: bare.run,
    splitQueued: () => queuedRun(split.runs, body, QUEUE_RUN_TURNS),
    close: async () => {
      await runs.close();
      await split.close();
      await bare.close();
    },
  };
}
