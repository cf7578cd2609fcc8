import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import type { ClusterOptions } from 'ioredis';

const run = promisify(execFile);

/** A local Redis Cluster of three masters (no replicas) for one test file. */
export type TestRedisCluster = {
  /** Its nodes, as `new Cluster(nodes)` takes them. */
  nodes: { host: string; port: number }[];
  /** Unique to this file, for queue names and key prefixes. */
  namespace: string;
  /** A new ioredis `Cluster` of its nodes (the caller closes it). */
  connect(options?: ClusterOptions): Cluster;
  stop(): Promise<void>;
};

/**
 * Start three `redis-server --cluster-enabled yes` on free loopback ports (each also needs its bus port, 10000
 * above), in a temporary directory of their own, join them with `redis-cli --cluster create`, and resolve once every
 * node says `cluster_state:ok`. Nothing is persisted.
 */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'agentcall-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await portWithBus(ports);
      ports.push(port);
      children.push(await startNode(port, dir));
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) await untilClusterOk(port);
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    return {
      nodes,
      namespace: `t${randomUUID().slice(0, 8)}`,
      connect: (options) => new Cluster(nodes, options),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startNode(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--dir',
      dir,
      '--appendonly',
      'no',
      '--save',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server on ${port} exited with ${code}: ${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

/** Every node must agree that all 16384 slots are served before a client is told of the cluster. */
async function untilClusterOk(port: number): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
    if (stdout.includes('cluster_state:ok')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the Redis Cluster node on ${port} never said cluster_state:ok`);
}

/** A free loopback port whose cluster bus port (10000 above) is free too, not in `taken`. */
async function portWithBus(taken: number[]): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    if (taken.includes(port)) continue;
    if ((await free(port)) && (await free(port + 10000))) return port;
  }
  throw new Error('no free loopback port pair for a Redis Cluster node');
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
