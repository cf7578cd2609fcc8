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

  /** A queue and key prefix named `name`, `AgentRuns` on them, and the environment of its worker processes. */
  const queueOf = (name: string, scripted: ScriptedServer, mcp: BatchServer) => {
    const queue = { prefix: `${redis.namespace}:${name}`, queueName: `${redis.namespace}-${name}` };
    const env = {
      REDIS_PORT: String(redis.port),
      QUEUE: queue.queueName,
      PREFIX: queue.prefix,
      BASE_URL: scripted.baseURL,
      MCP_URL: mcp.url.href,
    };
    const connection = { host: redis.host, port: redis.port };
    return { ...queue, env, runs: new AgentRuns({ connection, ...queue, secret: 'test-secret' }) };
  };

  /**
   * Start worker `name` and a run that has it crunch `batch` on `mcp`; resolves once the worker polls the task, with
   * the task's id and the id the worker kept in Redis for the call.
   */
  const crunch = async (on: AgentRuns, name: string, env: Record<string, string>, mcp: BatchServer, batch: string) => {
    const worker = await startWorker(name, env, FIXTURE);
    workers.push(worker);
    const { runId } = await on.start({
      runId: `task-${batch}`,
      body: { model: 'm', messages: [{ role: 'user', content: `Crunch batch ${batch}.` }] },
    });
    const [, polled] = await Promise.all([mcp.batch.started(1), worker.line('POLL ')]);
    const kept = await client.get(`${env.PREFIX}:app:mcp-task:${runId}:call_crunch`);
    return { worker, runId, taskId: polled.slice('POLL '.length), kept };
  };

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
    const queue = queueOf('task', model, remote);
    const { prefix, queueName, env } = queue;
    runs = queue.runs;
    // Worker A started the task and polls it: the work runs on the remote server, its id kept before the first poll.
    const { worker: first, runId, taskId, kept } = await crunch(runs, 'A', env, remote, 'b');

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
      const { env, runs: cancelling } = queueOf('cancel', crunching, batch);
      try {
        const { worker, runId, taskId, kept } = await crunch(cancelling, 'C', env, batch, 'c');
        expect(kept).toBe(taskId);

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
