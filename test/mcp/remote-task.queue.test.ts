import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startWorker, type WorkerProcess } from '../bullmq/worker-processes';
import { serveBatch, type BatchServer } from './fixtures/batch-server';

// Worker processes compile the sources as they start: slow on a loaded 2-core machine.
jest.setTimeout(420_000);

const FIXTURE = join(__dirname, 'fixtures', 'task-worker.ts');

/** The lines a worker printed that start with `word`, the word cut off. */
const printed = (worker: WorkerProcess, word: string) =>
  worker.lines.filter((line) => line.startsWith(`${word} `)).map((line) => line.slice(word.length + 1));

describe('a remote task through the queue', () => {
  let redis: TestRedis;
  let model: ScriptedServer;
  let remote: BatchServer;
  let client: Redis;
  let runs: AgentRuns;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: redis.host, port: redis.port });
  });
  afterAll(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill()));
    await runs?.close();
    await model?.close();
    await remote?.close();
    client.disconnect();
    await redis.stop();
  });

  it('polls the task its SIGKILLed worker started, from another worker, and the work runs once', async () => {
    model = await startScriptedServer({
      turns: [
        { toolCalls: [{ id: 'call_crunch', name: 'batch_crunch', arguments: { batch: 'b' } }] },
        { text: 'Batch b is crunched.' },
      ],
    });
    remote = await serveBatch();
    const prefix = `${redis.namespace}:task`;
    const queueName = `${redis.namespace}-task`;
    const env = {
      REDIS_PORT: String(redis.port),
      QUEUE: queueName,
      PREFIX: prefix,
      BASE_URL: model.baseURL,
      MCP_URL: remote.url.href,
    };
    runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName,
      prefix,
      secret: 'test-secret',
    });
    const first = await startWorker('A', env, FIXTURE);
    workers.push(first);

    const { runId } = await runs.start({
      runId: 'task-1',
      body: { model: 'm', messages: [{ role: 'user', content: 'Crunch batch b.' }] },
    });
    // Worker A started the task and polls it: the work runs on the remote server, its id kept before the first poll.
    const [, polled] = await Promise.all([remote.batch.started(1), first.line('POLL ')]);
    const taskId = polled.slice('POLL '.length);
    const kept = await client.get(`${prefix}:app:mcp-task:${runId}:call_crunch`);

    await first.kill();
    // The dead worker's lock would expire on its own (it is never renewed): removed, so no verdict waits for a clock.
    const locks = await client.keys(`bull:{${queueName}}:*:lock`);
    expect(locks).toHaveLength(1);
    await client.del(...locks);
    const second = await startWorker('B', env, FIXTURE);
    workers.push(second);
    // Worker B took the run over and polls; only now does the remote work end.
    await second.line('POLL ');
    remote.batch.release();

    const done = await runs.wait(runId, { timeoutMs: 120_000 });
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Batch b is crunched.');
    assertValidHistory(done.state.messages);
    expect(done.state.messages).toContainEqual({ role: 'tool', tool_call_id: 'call_crunch', content: 'crunched b' });
    // The work began once: worker B never called the tool, it polled the task worker A started.
    expect(remote.batch.starts).toBe(1);
    expect(printed(first, 'CALL')).toEqual(['crunch']);
    expect(printed(second, 'CALL')).toEqual([]);
    expect(new Set(printed(second, 'POLL'))).toEqual(new Set([taskId]));
    expect(kept).toBe(taskId);
    // Nothing cancelled the task when its worker died: a kept task may be polled from elsewhere.
    expect(remote.batch.aborted).toEqual([]);
    // The model was not asked for the turn again: the call resumed under the same id, so under the same key.
    expect(model.requests).toHaveLength(2);
    expect(await client.lrange(`${prefix}:setup:${runId}`, 0, -1)).toEqual(['A', 'B']);
  });

  it('cancels the task it kept when the run is cancelled: no worker will poll it again', async () => {
    const crunching = await startScriptedServer({
      turns: [{ toolCalls: [{ id: 'call_crunch', name: 'batch_crunch', arguments: { batch: 'c' } }] }],
    });
    const batch = await serveBatch();
    try {
      const prefix = `${redis.namespace}:cancel`;
      const queueName = `${redis.namespace}-cancel`;
      const env = { REDIS_PORT: String(redis.port), QUEUE: queueName, PREFIX: prefix, BASE_URL: crunching.baseURL };
      const cancelling = new AgentRuns({
        connection: { host: redis.host, port: redis.port },
        queueName,
        prefix,
        secret: 'test-secret',
      });
      try {
        const worker = await startWorker('C', { ...env, MCP_URL: batch.url.href }, FIXTURE);
        workers.push(worker);
        const { runId } = await cancelling.start({
          runId: 'task-2',
          body: { model: 'm', messages: [{ role: 'user', content: 'Crunch batch c.' }] },
        });
        const [, polled] = await Promise.all([batch.batch.started(1), worker.line('POLL ')]);
        const taskId = polled.slice('POLL '.length);
        expect(await client.get(`${prefix}:app:mcp-task:${runId}:call_crunch`)).toBe(taskId);

        await cancelling.cancel(runId);
        // The worker's call was aborted by the cancel, which no worker takes over: it cancels the remote task.
        expect(await worker.line('CANCEL ')).toBe(`CANCEL ${taskId}`);
        while (!batch.batch.aborted.includes('c')) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(batch.batch.starts).toBe(1);
        expect((await cancelling.get(runId)).status).toBe('cancelled');
      } finally {
        await cancelling.close();
      }
    } finally {
      await crunching.close();
      await batch.close();
    }
  });
});
