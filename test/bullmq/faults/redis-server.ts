import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { unusedPort } from '../../helpers/network';

/** A `redis-server` of a fault test's own, on a free loopback port, that can crash and come back on that port. */
export type RedisServer = {
  host: string;
  port: number;
  /** Redis's working directory: its AOF directory and RDB file. */
  dir: string;
  /** SIGKILL: Redis's process crashes (its data is what its AOF holds). */
  crash(): Promise<void>;
  /**
   * Resolves once Redis has written every write it answered to its AOF file (`aof_buffer_length:0`): under
   * `appendfsync everysec` it answers writes and holds them back for up to two seconds while an fsync is slow.
   */
  written(): Promise<void>;
  /** Start again on the same port and directory (with other `args`, when given): Redis loads its AOF or RDB file. */
  restart(args?: string[]): Promise<void>;
  stop(): Promise<void>;
};

/** Start `redis-server` with `args` (`--appendonly yes`, say) in a directory of its own. */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  const port = await unusedPort();
  const dir = mkdtempSync(join(tmpdir(), 'agentcall-redis-'));
  const common = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  let child = await spawnReady([...common, ...args]);
  return {
    host: '127.0.0.1',
    port,
    dir,
    crash: () => stopChild(child, 'SIGKILL'),
    written: async () => {
      const admin = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
      try {
        while (!/^aof_buffer_length:0\r?$/m.test(await admin.info('persistence')))
          await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        admin.disconnect();
      }
    },
    restart: async (again = args) => {
      child = await spawnReady([...common, ...again]);
    },
    stop: async () => {
      // Nothing of its data is kept: no shutdown that waits for a busy disk.
      await stopChild(child, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnReady(argv: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
