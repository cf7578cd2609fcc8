import { join } from 'node:path';
import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startWorker, type WorkerProcess } from '../bullmq/worker-processes';
import { serveSeats, type SeatServer } from './fixtures/seat-server';

// Worker processes compile the sources as they start: slow on a loaded 2-core machine.
jest.setTimeout(420_000);

const FIXTURE = join(__dirname, 'fixtures', 'ask-back-worker.ts');

describe('a remote ask-back through the queue', () => {
  let redis: TestRedis;
  let model: ScriptedServer;
  let remote: SeatServer;
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

  it('waits on the remote question, survives its worker SIGKILLed, and finishes on another with { answer }', async () => {
    model = await startScriptedServer({
      turns: [
        { toolCalls: [{ id: 'call_book', name: 'seats_book', arguments: { flight: 'LH1' } }] },
        { text: 'Your seat is 12A.' },
      ],
    });
    remote = await serveSeats();
    const prefix = `${redis.namespace}:ask`;
    const env = {
      REDIS_PORT: String(redis.port),
      QUEUE: `${redis.namespace}-ask`,
      PREFIX: prefix,
      BASE_URL: model.baseURL,
      MCP_URL: remote.url.href,
    };
    runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: env.QUEUE,
      prefix,
      secret: 'test-secret',
    });
    const first = await startWorker('A', env, FIXTURE);
    workers.push(first);

    const { runId } = await runs.start({
      runId: 'ask-1',
      body: { model: 'm', messages: [{ role: 'user', content: 'Book LH1.' }] },
    });
    const waiting = await runs.wait(runId, { timeoutMs: 120_000 });
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending).toEqual([
      expect.objectContaining({
        kind: 'interactive',
        interactive: expect.objectContaining({ type: 'mcp_input', message: 'Which seat on LH1?' }),
        resumeData: { inputKey: expect.any(String), requestState: expect.any(String) },
      }),
    ]);
    // The worker that asked dies while the run waits: nothing of the question lives in its memory.
    await first.kill();

    workers.push(await startWorker('B', env, FIXTURE));
    const token = await runs.resumeToken(runId);
    await expect(
      runs.decide(runId, { call_book: { answer: { action: 'later' } } } as never, { token }),
    ).rejects.toThrow(`decisions["call_book"].answer action must be 'accept', 'decline' or 'cancel'`);
    await runs.decide(runId, { call_book: { answer: { action: 'accept', content: { seat: '12A' } } } }, { token });
    const done = await runs.wait(runId, { timeoutMs: 120_000 });
    expect(done.status).toBe('completed');
    expect(done.text).toBe('Your seat is 12A.');
    assertValidHistory(done.state.messages);
    expect(done.state.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call_book',
      content: 'Booked 12A on LH1',
    });
    expect(remote.seats.answers).toEqual([undefined, { action: 'accept', content: { seat: '12A' } }]);
    expect(await client.lrange(`${prefix}:setup:${runId}`, 0, -1)).toEqual(['A', 'B']);
  });
});
