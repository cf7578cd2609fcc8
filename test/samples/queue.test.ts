import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from '../helpers/redis';

// Each process compiles the sample as it starts: slow on a loaded machine.
jest.setTimeout(300_000);

const SAMPLE = join(__dirname, '..', '..', 'samples', 'queue');

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
    output: () => stdout,
    exited,
    /** Resolves once the output holds `text`; rejects if the process exits first. */
    printed: async (text: string) => {
      for (;;) {
        if (stdout.includes(text)) return;
        if (child.exitCode !== null) throw new Error(`${file} exited (${child.exitCode}): ${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    /** The output once it exits, failing on a non-zero exit. */
    finished: async () => {
      const code = await exited;
      if (code !== 0) throw new Error(`${file} exited with ${code}: ${stdout}${stderr}`);
      return stdout;
    },
  };
}

describe('samples/queue: a starter, a worker and a decider in three processes', () => {
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

  it('starts a run, waits for the approval, and finishes it on the worker after the decision', async () => {
    server.enqueue(
      { text: 'Refunding.', toolCalls: [{ id: 'r1', name: 'refund_order', arguments: { orderId: 'A1' } }] },
      { text: 'Order A1 is refunded.' },
    );
    const env = {
      REDIS_URL: `redis://${redis.host}:${redis.port}`,
      RUNS_SECRET: 'sample secret',
      RUNS_QUEUE: `${redis.namespace}-refunds`,
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-test',
      MODEL: 'scripted',
    };
    const worker = startProcess('worker.ts', [], env);
    try {
      await worker.printed('worker ready');
      const started = await startProcess('starter.ts', ['Refund order A1'], env).finished();
      const runId = /^run (\S+)$/m.exec(started)?.[1];
      expect(runId).toBeDefined();
      expect(started).toContain('calls refund_order {"orderId":"A1"}');
      expect(started.trim().endsWith('[waiting]')).toBe(true);
      expect(worker.output()).not.toContain('refunded A1');

      const decided = await startProcess('decider.ts', [runId!, 'approve'], env).finished();
      expect(decided).toContain('deciding on refund_order {"orderId":"A1"}');
      expect(decided).toContain('[completed] Order A1 is refunded.');
      await worker.printed('refunded A1 for {"user":"ada"}');
      expect(server.requests.map((r) => r.body.model)).toEqual(['scripted', 'scripted']);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });
});
