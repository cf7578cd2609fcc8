import { Redis } from 'ioredis';
import { AgentRuns } from '../../../src/bullmq';
import type { RunEvent } from '../../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../../src/testing';
import { fakeTool, user } from '../../helpers/tools';
import { startRedisServer, type RedisServer } from './redis-server';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * Every command reaches Redis 50 ms late (a TCP proxy on loopback holds it back), every setting at its default:
 * runs of three turns end once, each call runs once, and no job stalls (BullMQ writes a `stalled` event to its
 * queue's event stream for each).
 */
describe('a slow Redis: each command delayed 50 ms', () => {
  let redis: RedisServer;
  let proxy: TcpProxy;
  let server: ScriptedServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    proxy = await startTcpProxy(redis, { delayMs: 50 });
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await server.close();
    await proxy.close();
    await redis.stop();
  });

  it('ends every run once, runs every call once, and stalls no job', async () => {
    const probe = new Redis({ host: proxy.host, port: proxy.port });
    await probe.ping();
    const sent = performance.now();
    await probe.ping();
    // The delay is there: an answer comes no sooner.
    expect(performance.now() - sent).toBeGreaterThanOrEqual(49);
    probe.disconnect();
    const lookup = fakeTool('lookup', ({ call }) => ({ response: `found ${call.id}` }));
    server.enqueue(
      ...Array.from({ length: 30 }, () => (request: RecordedRequest) => {
        const turn = request.body.messages.filter((m) => m.role === 'assistant').length;
        if (turn >= 2) return { text: 'Done.' };
        return { toolCalls: ['a', 'b'].map((id) => ({ id: `t${turn}-${id}`, name: 'lookup', arguments: {} })) };
      }),
    );
    const runs = new AgentRuns({
      connection: { host: proxy.host, port: proxy.port },
      queueName: 'slow',
      prefix: 'slow',
    });
    try {
      await runs
        .worker({ concurrency: 3, setup: async () => ({ client: server.client(), tools: [lookup] }) })
        .waitUntilReady();
      const started = await Promise.all(
        [1, 2, 3].map(() => runs.start({ body: { model: 'm', messages: [user('look')] } })),
      );
      for (const { runId } of started) {
        const record = await runs.wait(runId, { timeoutMs: 120_000 });
        expect([record.status, record.text]).toEqual(['completed', 'Done.']);
        const events: RunEvent[] = [];
        for await (const event of runs.events(runId)) events.push(event);
        expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(4);
      }
      // Each run's four calls, once each.
      expect(lookup.calls).toHaveLength(12);
      const direct = new Redis({ host: redis.host, port: redis.port });
      const queueEvents = await direct.xrange('bull:{slow}:events', '-', '+');
      direct.disconnect();
      expect(queueEvents.filter(([, fields]) => fields[1] === 'stalled')).toEqual([]);
      expect(queueEvents.filter(([, fields]) => fields[1] === 'completed')).not.toEqual([]);
    } finally {
      await runs.close();
    }
  });
});
