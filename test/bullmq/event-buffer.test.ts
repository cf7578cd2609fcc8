import { Redis } from 'ioredis';
import { EventBuffer } from '../../src/bullmq/worker/event-buffer';
import { RedisRunStore } from '../../src/bullmq/store/redis-run-store';
import { RunHold } from '../../src/bullmq/worker/run-hold';
import type { RunEventData } from '../../src/bullmq/types';
import { startRedis, type TestRedis } from '../helpers/redis';
import { deferred } from '../helpers/deferred';

let redis: TestRedis;
let client: Redis;
let store: RedisRunStore;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis({ host: redis.host, port: redis.port });
  store = new RedisRunStore({ host: redis.host, port: redis.port }, { prefix: redis.namespace });
});
afterAll(async () => {
  await store.close();
  client.disconnect();
  await redis.stop();
});

describe('EventBuffer', () => {
  it('sends each event write once the one before it was answered, so the stream keeps the order events were made in', async () => {
    const runId = 'ordered';
    const sent: string[][] = [];
    const called = [deferred(), deferred()];
    const firstAnswer = deferred();
    // The real store; its first timed write is answered late, as a script sent again in full after NOSCRIPT is.
    const slowFirst = Object.create(store) as RedisRunStore;
    slowFirst.appendEvents = async (id: string, events: RunEventData[]) => {
      const index = sent.push(events.map((e) => (e.type === 'text' ? e.text : e.type))) - 1;
      called[index]?.resolve();
      if (index === 0) await firstAnswer.promise;
      await store.appendEvents(id, events);
    };
    slowFirst.journal = async (id: string, entries: Record<string, string>, events: RunEventData[]) => {
      sent.push(events.map((e) => (e.type === 'text' ? e.text : e.type)));
      await store.journal(id, entries, events);
    };
    const buffer = new EventBuffer(slowFirst, runId, 1, new RunHold(() => undefined));

    buffer.push({ type: 'text', text: 'one ' });
    await called[0].promise;
    buffer.push({ type: 'text', text: 'two ' });
    // The second timed write is due now; give it every chance to go out.
    await new Promise((resolve) => setTimeout(resolve, 20));
    buffer.push({ type: 'text', text: 'three' });
    const journaled = buffer.send((events) => slowFirst.journal(runId, { 'call:x': '{}' }, events));
    expect(sent).toEqual([['one ']]);

    firstAnswer.resolve();
    await journaled;
    await buffer.settle();
    expect(sent).toEqual([['one '], ['two '], ['three']]);
    const stream = await client.xrange(store.keys(runId).events, '-', '+');
    expect(stream.map(([, fields]) => JSON.parse(fields[3]).text)).toEqual(['one ', 'two ', 'three']);
  });

  it('sends nothing after a failed event write, and says so to every write after it', async () => {
    const runId = 'failed';
    const failing = Object.create(store) as RedisRunStore;
    let calls = 0;
    const called = deferred();
    failing.appendEvents = async () => {
      calls++;
      called.resolve();
      throw new Error('Redis went away');
    };
    const buffer = new EventBuffer(failing, runId, 1, new RunHold(() => undefined));
    buffer.push({ type: 'text', text: 'lost' });
    await called.promise;
    await expect(buffer.settle()).rejects.toThrow('Redis went away');
    const journal = jest.fn(async () => undefined);
    buffer.push({ type: 'text', text: 'after the gap' });
    await expect(buffer.send(journal)).rejects.toThrow('Redis went away');
    expect([calls, journal.mock.calls.length]).toEqual([1, 0]);
    expect(await client.xlen(store.keys(runId).events)).toBe(0);
  });
});
