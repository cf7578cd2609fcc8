import { AgentRuns } from '../../src/bullmq';
import type { RunEvent } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';
import { startWorker, type WorkerProcess } from './worker-processes';

// The worker process compiles the sources as it starts: slow on a loaded 2-core machine.
jest.setTimeout(300_000);

/**
 * A worker SIGKILLed mid-call loses its job only to BullMQ's stalled check, which re-queues it without counting a
 * failed attempt (`attemptsMade` stays 0). The worker that takes the job must still announce the take-over: its
 * `status: running` event carries `attempt` 2, which is what recovery is timed by and what tells a live reader that
 * the turn starts again.
 */
describe('a run taken over from a killed worker', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let runs: AgentRuns;
  let doomed: WorkerProcess | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await doomed?.kill();
    await runs.close();
    await server.close();
    await redis.stop();
  });

  it('announces the stalled job taken by another worker as attempt 2, once', async () => {
    const prefix = `${redis.namespace}:takeover`;
    const queueName = `${redis.namespace}-takeover`;
    // The taking worker replays the journaled response: the model is asked once for the call, once for the answer.
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'slow' }] });
    server.enqueue({ text: 'done' });
    runs = new AgentRuns({ connection: { host: redis.host, port: redis.port }, queueName, prefix });
    doomed = await startWorker('doomed', {
      REDIS_PORT: String(redis.port),
      QUEUE: queueName,
      PREFIX: prefix,
      BASE_URL: server.baseURL,
      HANG_IN_SLOW: '1',
      CONCURRENCY: '1',
      LOCK_MS: '1000',
    });
    const { runId } = await runs.start({ body: { model: 'm', messages: [user(`run takeover`)] } });
    await doomed.line('HANG');
    await doomed.kill();

    const slow = fakeTool('slow', () => ({ response: 'slow done' }));
    await runs
      .worker({ stalledInterval: 300, setup: async () => ({ client: server.client(), tools: [slow] }) })
      .waitUntilReady();
    const done = await runs.wait(runId, { timeoutMs: 120_000 });
    expect([done.status, done.text]).toEqual(['completed', 'done']);

    const all: RunEvent[] = [];
    for await (const event of runs.events(runId)) all.push(event);
    const statuses = all.flatMap((e) => (e.type === 'status' ? [[e.status, e.attempt ?? 1]] : []));
    expect(statuses).toEqual([
      ['queued', 1],
      ['running', 1],
      ['running', 2],
      ['completed', 1],
    ]);
    expect(slow.calls).toHaveLength(1);
  });
});
