import { Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunAgentCallProps } from '../../src/agentCall/type';

/** A queue started, and closed when done with. */
export type BareQueue = { run: () => Promise<void>; close: () => Promise<void> };

/**
 * The queue's floor: the smallest durable queue a team would write by hand over bare BullMQ. One job per run, the
 * loop's state `SET` at each checkpoint, the answer as the job's return value, a wait through BullMQ's
 * `QueueEvents`. No run record, no events, no journal, no cancel, no recovery of a turn in flight.
 */
export async function startBareQueue(
  connection: ConnectionOptions & { host: string; port: number },
  name: string,
  concurrency: number,
  props: Pick<RunAgentCallProps, 'client' | 'tools'> & { model: string; messages: ChatCompletionMessageParam[] },
): Promise<BareQueue> {
  const store = new Redis(connection);
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  const worker = new Worker(
    name,
    async (job) => {
      const result = await runAgentLoop({
        client: props.client,
        tools: props.tools,
        body: { model: props.model, messages: job.data.messages as ChatCompletionMessageParam[] },
        maxConsecutiveToolTurns: 0,
        onCheckpoint: async (state) => {
          await store.set(`${name}:state:${job.id}`, JSON.stringify(state));
        },
      });
      if (result.stopReason !== 'completed') throw new Error(`bare run ${job.id}: ${result.stopReason}`);
      return result.state.turn;
    },
    { connection, concurrency },
  );
  await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  return {
    run: async () => {
      const job = await queue.add('run', { messages: props.messages }, { removeOnComplete: true, removeOnFail: true });
      await job.waitUntilFinished(events, 60_000);
    },
    close: async () => {
      await worker.close();
      await Promise.all([events.close(), queue.close()]);
      store.disconnect();
    },
  };
}
