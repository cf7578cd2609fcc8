import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from '../helpers/redis';

// Each process compiles the sample as it starts: slow on a loaded machine.
jest.setTimeout(300_000);

const SAMPLE = join(__dirname, '..', '..', 'samples', 'agents');

/** A sample process: its output so far, a wait for a line, and its exit. */
function startProcess(file: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(SAMPLE, file), ...args], {
    env: { ...process.env, ...env, TS_NODE_PROJECT: join(__dirname, '..', '..', 'tsconfig.json') },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    printed: async (text: string) => {
      for (;;) {
        if (stdout.includes(text)) return;
        if (child.exitCode !== null) throw new Error(`${file} exited (${child.exitCode}): ${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    finished: async () => {
      const code = await exited;
      if (code !== 0) throw new Error(`${file} exited with ${code}: ${stdout}${stderr}`);
      return stdout;
    },
  };
}

describe('samples/agents on the queue: a starter, a worker and a decider in three processes', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it("pauses on the cashier's refund, approved by its path in another process, and completes on the worker", async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'call_1', name: 'research', arguments: { task: 'find offers for shoes' } },
          { id: 'call_2', name: 'cashier', arguments: { task: 'refund order 42' } },
        ],
      },
      { toolCalls: [{ id: 's1', name: 'search', arguments: { query: 'shoes' } }] },
      { text: 'Found 3 offers.' },
      { toolCalls: [{ id: 'r1', name: 'refund', arguments: { orderId: '42' } }] },
      { text: 'Refunded order 42.' },
      { text: 'Here are 3 offers; order 42 is refunded.' },
    );
    const env = {
      REDIS_URL: `redis://${redis.host}:${redis.port}`,
      RUNS_SECRET: 'sample secret',
      RUNS_QUEUE: `${redis.namespace}-master`,
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-test',
      MODEL: 'scripted',
    };
    const worker = startProcess('queued-worker.ts', [], env);
    try {
      await worker.printed('worker ready');
      const started = await startProcess('queued-starter.ts', ['Find shoes and refund order 42'], env).finished();
      const runId = /^run (\S+)$/m.exec(started)?.[1];
      expect(runId).toBeDefined();
      // The sub-agents' calls reach the run's events too.
      expect(started).toContain('calls search {"query":"shoes"}');
      expect(started).toContain('calls refund {"orderId":"42"}');
      expect(started.trim().endsWith('[waiting]')).toBe(true);

      const decided = await startProcess('queued-decider.ts', [runId!], env).finished();
      expect(decided).toContain('approving call_2/r1');
      expect(decided).toContain('[completed] Here are 3 offers; order 42 is refunded.');
      const refunded = server.requests[4].body.messages as { role: string; content?: string }[];
      expect(refunded.at(-1)?.content).toBe(`refunded 42 (${runId}:call_2/r1)`);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });
});
