import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../../helpers/network';

/** A `redis-server` of a fault test's own, on a free loopback port, that can crash and come back on that port. */
export type RedisServer = {
  host: string;
  port: number;
  /** SIGKILL: Redis's process crashes (its data is what its AOF holds). */
  crash(): Promise<void>;
  /** Start again on the same port and directory: Redis loads its AOF. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** Start `redis-server` with `args` (`--appendonly yes`, say) in a directory of its own. */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  const port = await unusedPort();
  const dir = mkdtempSync(join(tmpdir(), 'agentcall-redis-'));
  const argv = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...args];
  let child = await spawnReady(argv);
  return {
    host: '127.0.0.1',
    port,
    crash: () => stopChild(child, 'SIGKILL'),
    restart: async () => {
      child = await spawnReady(argv);
    },
    stop: async () => {
      await stopChild(child, 'SIGTERM');
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
