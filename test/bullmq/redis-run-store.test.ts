import { RedisRunStore, runStoreConformance } from '../../src/bullmq';
import { startRedis, type TestRedis } from '../helpers/redis';

let redis: TestRedis;
let stores = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

// Each case gets a store of its own, on a prefix of its own.
runStoreConformance(
  () => new RedisRunStore({ host: redis.host, port: redis.port }, { prefix: `${redis.namespace}:${++stores}` }),
  { describe, it },
);

describe("a run's create", () => {
  it('is applied before what the same connection sends after it, even where Redis knows none of the scripts', async () => {
    // A start queues the run's job right behind its create without waiting for it: a create sent by SHA alone,
    // refused by a Redis that forgot its scripts (new, restarted, flushed) and sent again, would land after the job.
    const store = new RedisRunStore({ host: redis.host, port: redis.port }, { prefix: `${redis.namespace}:create` });
    try {
      const runId = 'fresh';
      const state = {
        v: 1 as const,
        runId,
        messages: [],
        turn: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        loopGuard: { signature: '', repeats: 0 },
        pending: [],
      };
      await store.redis.script('FLUSH');
      const created = store.create({ runId, state, body: {}, meta: null });
      const seen = store.redis.hexists(store.keys(runId).run, 'status');
      expect(await created).toMatchObject({ created: true });
      expect(await seen).toBe(1);
    } finally {
      await store.close();
    }
  });
});
