import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { QueuedAppModule } from '../../samples/nestjs-app/queued-app.module';
import { RefundTools } from '../../samples/nestjs-app/refund.tools';
import type { RunEvent, RunRecord } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';

/** Read SSE events from `res` until `stop` says so (or the stream ends); the body is then cancelled. */
async function readSse(res: Response, stop: (event: RunEvent) => boolean): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as RunEvent;
        events.push(event);
        if (stop(event)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

describe('samples/nestjs-app queued mode: two processes share runs through Redis', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let api: INestApplication;
  let worker: INestApplication;
  let apiUrl: string;
  let workerUrl: string;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    server = await startScriptedServer();
    const start = async (withWorker: boolean) => {
      const moduleRef = await Test.createTestingModule({
        imports: [
          QueuedAppModule.register({
            connection: { host: redis.host, port: redis.port },
            client: server.client(),
            model: 'queued-model',
            secret: 'sample secret',
            worker: withWorker,
            queueName: `${redis.namespace}-nest`,
            prefix: `${redis.namespace}:nest`,
          }),
        ],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.listen(0, '127.0.0.1');
      return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
    };
    ({ app: api, url: apiUrl } = await start(false));
    ({ app: worker, url: workerUrl } = await start(true));
  });
  afterEach(async () => {
    await api.close();
    await worker.close();
    await server.close();
  });

  it('posts a run on one process, streams it from another, and resumes it after an approval', async () => {
    server.enqueue(
      { text: 'Refunding.', toolCalls: [{ id: 'r1', name: 'refund_order', arguments: { orderId: 'A1' } }] },
      { text: 'Order A1 is refunded.' },
    );
    const post = (url: string, body: unknown) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const started = (await (await post(`${apiUrl}/runs`, { prompt: 'Refund order A1' })).json()) as { runId: string };
    const firstPart = await readSse(
      await fetch(`${workerUrl}/runs/${started.runId}/events`),
      (e) => e.type === 'status' && e.status === 'waiting',
    );
    expect(firstPart.map((e) => e.type)).toContain('tool_call');

    const waiting = (await (await fetch(`${apiUrl}/runs/${started.runId}`)).json()) as RunRecord;
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending).toMatchObject([{ kind: 'approval', call: { id: 'r1' } }]);
    expect(worker.get(RefundTools).refunded).toEqual([]);

    const decisions = { r1: { approve: true } };
    const forged = await post(`${apiUrl}/runs/${started.runId}/decisions`, { decisions, token: 'forged' });
    expect(forged.status).toBe(403);
    // Reads carry no token: an admin asks for it.
    expect(waiting).not.toHaveProperty('resumeToken');
    const tokenUrl = `${apiUrl}/runs/${started.runId}/resume-token`;
    expect((await fetch(tokenUrl, { headers: { 'x-user': 'bob' } })).status).toBe(403);
    const { token } = (await (await fetch(tokenUrl, { headers: { 'x-user': 'ada', 'x-role': 'admin' } })).json()) as {
      token: string;
    };
    const decided = await post(`${apiUrl}/runs/${started.runId}/decisions`, { decisions, token });
    expect(decided.status).toBe(201);

    const lastSeen = firstPart[firstPart.length - 1].id;
    const rest = await readSse(
      await fetch(`${apiUrl}/runs/${started.runId}/events`, { headers: { 'last-event-id': lastSeen } }),
      (e) => e.type === 'status' && e.status === 'completed',
    );
    const ids = [...firstPart, ...rest].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.map((e) => (e.type === 'status' ? e.status : e.type))).toEqual(
      expect.arrayContaining(['queued', 'running', 'tool_result', 'text', 'completed']),
    );

    const done = (await (await fetch(`${apiUrl}/runs/${started.runId}`)).json()) as RunRecord;
    expect(done).toMatchObject({ status: 'completed', text: 'Order A1 is refunded.' });
    assertValidHistory(done.state.messages);
    expect(worker.get(RefundTools).refunded).toEqual(['A1']);
  });
});
