import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { unusedPort } from './network';

/** A Redis for one test file: its own `redis-server`, or the one `REDIS_URL` names (with keys of its own). */
export type TestRedis = {
  host: string;
  port: number;
  /** Unique to this file: a prefix for queue names and run keys when Redis is shared through `REDIS_URL`. */
  namespace: string;
  stop(): Promise<void>;
};

const INSTALL_HINT =
  'These tests need Redis: install redis-server (Debian/Ubuntu: apt-get install -y redis-server) or set REDIS_URL.';

/**
 * Start a throwaway `redis-server` on a free port (no persistence), or use `REDIS_URL` when set. Fails with an
 * install hint when neither is available.
 */
export async function startRedis(): Promise<TestRedis> {
  const namespace = `t${randomUUID().slice(0, 8)}`;
  if (process.env.REDIS_URL) {
    const url = new URL(process.env.REDIS_URL);
    return { host: url.hostname, port: Number(url.port || 6379), namespace, stop: async () => undefined };
  }
  const port = await unusedPort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout.on('data', onData);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT) : error),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
  return { host: '127.0.0.1', port, namespace, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
