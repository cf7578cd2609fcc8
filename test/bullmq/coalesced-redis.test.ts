import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import { CoalescedRedis } from '../../src/bullmq/store/coalesced-redis';
import { startScriptedServer } from '../../src/testing';
import { countWrites } from '../helpers/count-writes';
import { startRedis, type TestRedis } from '../helpers/redis';

let redis: TestRedis;
const open: Redis[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => {
  for (const client of open.splice(0)) client.disconnect();
});
afterAll(() => redis.stop());

async function ready<T extends Redis>(client: T): Promise<T> {
  open.push(client);
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

describe('CoalescedRedis', () => {
  it('sends the commands of one turn of the event loop in one write, in the order they were given', async () => {
    const client = await ready(new CoalescedRedis({ host: redis.host, port: redis.port }));
    const key = `${redis.namespace}:order`;
    const writes = countWrites(client);
    const replies = await Promise.all([
      client.set(key, '1'),
      client.incr(key),
      client.pipeline().incr(key).get(key).exec(),
      client.eval('return redis.call("INCR", KEYS[1])', 1, key),
      client.get(key),
    ]);
    expect(replies).toEqual([
      'OK',
      2,
      [
        [null, 3],
        [null, '3'],
      ],
      4,
      '4',
    ]);
    expect(writes()).toBe(1);

    // The next turn's commands go out on their own write.
    await client.get(key);
    expect(writes()).toBe(2);
  });

  it('sends what it holds back at once when told to, and holds the commands after that for the end of the turn', async () => {
    const client = await ready(new CoalescedRedis({ host: redis.host, port: redis.port }));
    const key = `${redis.namespace}:now`;
    const writes = countWrites(client);
    const held = client.set(key, '1');
    const waited = client.incr(key);
    client.sendNow();
    expect(writes()).toBe(1);
    const later = client.incr(key);
    client.sendNow();
    const last = client.get(key);
    expect(writes()).toBe(2);
    expect(await Promise.all([held, waited, later, last])).toEqual(['OK', 2, 3, '3']);
    expect(writes()).toBe(3);
    // Told with nothing held back, it has nothing to send.
    client.sendNow();
    expect(writes()).toBe(3);
  });

  it('writes each command on its own, as ioredis does, for a plain client', async () => {
    const client = await ready(new Redis({ host: redis.host, port: redis.port }));
    const writes = countWrites(client);
    await Promise.all([client.ping(), client.ping(), client.ping()]);
    expect(writes()).toBe(3);
  });

  it('queues commands given before it connects, and makes duplicates that coalesce too, for blocking reads', async () => {
    const client = new CoalescedRedis({ host: redis.host, port: redis.port });
    open.push(client);
    expect(await client.ping()).toBe('PONG');
    const duplicate = await ready(client.duplicate());
    expect(duplicate).toBeInstanceOf(CoalescedRedis);
    // BullMQ refuses a blocking connection that gives up on a command after some retries.
    expect(client.options.maxRetriesPerRequest).toBe(20);
    expect(duplicate.options.maxRetriesPerRequest).toBeNull();
    const writes = countWrites(duplicate);
    await Promise.all([duplicate.ping(), duplicate.ping()]);
    expect(writes()).toBe(1);
  });

  it('leaves a client given to AgentRuns as it was: not used, not closed, nothing defined on it', async () => {
    const given = await ready(new Redis({ host: redis.host, port: redis.port, maxRetriesPerRequest: null }));
    const before = Object.keys(given).sort();
    const server = await startScriptedServer();
    server.enqueue({ text: 'Done.' });
    const runs = new AgentRuns({ connection: given, queueName: `${redis.namespace}-given`, prefix: redis.namespace });
    await runs.worker({ setup: async () => ({ client: server.client(), tools: [] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } });
    expect((await runs.wait(runId)).text).toBe('Done.');
    await runs.close();
    await server.close();
    expect(given.status).toBe('ready');
    expect(Object.keys(given).sort()).toEqual(before);
    expect(given).not.toBeInstanceOf(CoalescedRedis);
  });
});
