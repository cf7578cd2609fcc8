import { Redis } from 'ioredis';
import { AgentRuns } from '../../../src/bullmq';
import type { RunEvent } from '../../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../../src/testing';
import { fakeTool, user } from '../../helpers/tools';
import { startRedisServer, type RedisServer } from './redis-server';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { deferred } from '../../helpers/deferred';

/**
 * ioredis emits each connection error as an `error` event, and prints "Unhandled error event" for a client with no
 * listener: the errors emitted, and those no listener took.
 */
function watchErrorEvents(): { emitted: string[]; unhandled: string[]; restore(): void } {
  const proto = Redis.prototype as unknown as { silentEmit(this: Redis, name: string, arg: unknown): unknown };
  const original = proto.silentEmit;
  const watch = { emitted: [] as string[], unhandled: [] as string[], restore: () => (proto.silentEmit = original) };
  proto.silentEmit = function (name, arg) {
    if (name === 'error' && this.status !== 'end') {
      watch.emitted.push(String(arg));
      if (this.listenerCount('error') === 0) watch.unhandled.push(String(arg));
    }
    return original.call(this, name, arg);
  };
  return watch;
}

/**
 * Every connection to Redis goes through a TCP proxy on loopback, which resets them all while a run's tool call is
 * in flight and refuses new ones for a while: the worker, the starter and a live reader reconnect, and the run goes
 * on as if nothing happened; no client leaves an `error` event unhandled.
 */
describe('the connection to Redis cut and restored mid-turn', () => {
  let redis: RedisServer;
  let proxy: TcpProxy;
  let server: ScriptedServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    proxy = await startTcpProxy(redis);
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await server.close();
    await proxy.close();
    await redis.stop();
  });

  it('ends the run once, the call run once, every event once, and a live reader reads on', async () => {
    const errors = watchErrorEvents();
    const inFlight = deferred();
    const back = deferred();
    const pay = fakeTool('pay', async () => {
      inFlight.resolve();
      await back.promise;
      return { response: 'paid' };
    });
    server.enqueue(
      ...Array.from(
        { length: 5 },
        () => (request: RecordedRequest) =>
          request.body.messages.some((m) => m.role === 'tool')
            ? { text: 'Paid.' }
            : { toolCalls: [{ id: 'c1', name: 'pay', arguments: {} }] },
      ),
    );
    const runs = new AgentRuns({ connection: { host: proxy.host, port: proxy.port }, queueName: 'cut', prefix: 'cut' });
    try {
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [pay] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
      const live: RunEvent[] = [];
      const reading = (async () => {
        for await (const event of runs.events(runId)) live.push(event);
      })();

      await inFlight.promise;
      proxy.cut();
      // Refused until every client saw its connection go: a reconnection refused is an error event too.
      while (errors.emitted.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
      proxy.restore();
      back.resolve();

      const record = await runs.wait(runId, { timeoutMs: 60_000 });
      expect([record.status, record.text]).toEqual(['completed', 'Paid.']);
      expect(pay.calls).toHaveLength(1);
      await reading;
      const all: RunEvent[] = [];
      for await (const event of runs.events(runId)) all.push(event);
      expect(all.filter((e) => e.type === 'tool_call')).toHaveLength(1);
      expect(all.filter((e) => e.type === 'tool_result')).toHaveLength(1);
      expect(all.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('Paid.');
      const finals = all.filter((e) => e.type === 'status' && e.status === 'completed');
      expect([finals.length, all.at(-1)]).toEqual([1, finals[0]]);
      expect(live.map((e) => e.id)).toEqual(all.map((e) => e.id));
      expect(errors.unhandled).toEqual([]);
    } finally {
      errors.restore();
      await runs.close();
    }
  });
});
