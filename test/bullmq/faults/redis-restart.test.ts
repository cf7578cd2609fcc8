import { AgentRuns } from '../../../src/bullmq';
import type { RunEvent } from '../../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../../src/testing';
import { fakeTool, user } from '../../helpers/tools';
import { startRedisServer, type RedisServer } from './redis-server';
import { deferred } from '../../helpers/deferred';

/**
 * Redis with its AOF on (`appendfsync everysec`) crashes (SIGKILL) while a run's tool call is in flight and comes
 * back on the same port. A process crash loses no write Redis has written to its AOF file (the page cache outlives
 * the process), so the run goes on as if nothing happened: the library's clients reconnect and send what waited
 * meanwhile, and none of them leaves an `error` event unhandled. The crash comes once Redis wrote what it answered:
 * on a busy disk `everysec` answers writes it holds back for up to two seconds, and a crash then loses them as a
 * machine crash would (`lost-last-second.test.ts` is that case).
 */
describe('Redis restarted mid-run, AOF on', () => {
  let redis: RedisServer;
  let server: ScriptedServer;

  beforeAll(async () => {
    redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'everysec']);
    server = await startScriptedServer();
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('ends the run once, the call run once, every event once, and a live reader reads on', async () => {
    const unhandled = jest.spyOn(console, 'error');
    const inFlight = deferred();
    const back = deferred();
    const pay = fakeTool('pay', async () => {
      inFlight.resolve();
      await back.promise;
      return { response: 'paid' };
    });
    server.enqueue((request: RecordedRequest) =>
      request.body.messages.some((m) => m.role === 'tool')
        ? { text: 'Paid.' }
        : { toolCalls: [{ id: 'c1', name: 'pay', arguments: {} }] },
    );
    server.enqueue({ text: 'Paid.' });
    const connection = { host: redis.host, port: redis.port };
    const runs = new AgentRuns({ connection, queueName: 'restart', prefix: 'restart' });
    try {
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [pay] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
      const live: RunEvent[] = [];
      const reading = (async () => {
        for await (const event of runs.events(runId)) live.push(event);
      })();

      await inFlight.promise;
      await redis.written();
      await redis.crash();
      // Away long enough for every client's reconnection to be refused at least once.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await redis.restart();
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
      const messages = unhandled.mock.calls.map((args) => args.map(String).join(' '));
      expect(messages.filter((m) => m.includes('Unhandled error event'))).toEqual([]);
    } finally {
      unhandled.mockRestore();
      await runs.close();
    }
  });
});
