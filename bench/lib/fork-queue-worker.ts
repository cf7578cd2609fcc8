import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { AgentRuns } from '../../src/bullmq';

/** A worker process of {@link ./queue-worker}, and a promise of each kind of message it sends. */
export type QueueWorkerProcess = {
  child: ChildProcess;
  message: (key: 'ready' | 'hung' | 'unblocked') => Promise<void>;
};

/** Fork {@link ./queue-worker} with `env` (REDIS_PORT, QUEUE, BASE_URL and its options) added to this process's. */
export function forkQueueWorker(env: Record<string, string>): QueueWorkerProcess {
  const child = fork(join(__dirname, 'queue-worker.js'), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const message = (key: string) =>
    new Promise<void>((resolve) => child.on('message', (m) => key in (m as object) && resolve()));
  return { child, message };
}

/** A queue laid out as a deployment lays it out: `runs` here (for `start` and `wait`), its worker forked. */
export type SplitQueue = { runs: AgentRuns; worker: QueueWorkerProcess; close: () => Promise<void> };

/** Start {@link SplitQueue} on `queueName`; resolves once its worker takes jobs. */
export async function startSplitQueue(
  connection: { host: string; port: number },
  baseURL: string,
  queueName: string,
  concurrency: number,
): Promise<SplitQueue> {
  const runs = new AgentRuns({ connection, queueName, prefix: queueName });
  const worker = forkQueueWorker({
    REDIS_PORT: String(connection.port),
    QUEUE: queueName,
    BASE_URL: baseURL,
    CONCURRENCY: String(concurrency),
  });
  await worker.message('ready');
  return {
    runs,
    worker,
    close: async () => {
      worker.child.kill();
      await runs.close();
    },
  };
}
