import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A worker process of {@link ./queue-worker}, and a promise of each kind of message it sends. */
export type QueueWorkerProcess = { child: ChildProcess; message: (key: 'ready' | 'hung') => Promise<void> };

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
