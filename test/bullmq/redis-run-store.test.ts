import { RedisRunStore, runStoreConformance } from '../../src/bullmq';
import { countWrites } from '../helpers/count-writes';
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

/** Run `use` with a store of its own, under `name` in this file's namespace, closed after. */
async function withStore(name: string, use: (store: RedisRunStore) => Promise<void>): Promise<void> {
  const store = new RedisRunStore({ host: redis.host, port: redis.port }, { prefix: `${redis.namespace}:${name}` });
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

/** A new run's state, as `start` makes it. */
function newState(runId: string) {
  return {
    v: 1 as const,
    runId,
    messages: [],
    turn: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    loopGuard: { signature: '', repeats: 0 },
    pending: [],
  };
}

describe("a run's create", () => {
  it('is applied before what the same connection sends after it, even where Redis knows none of the scripts', async () => {
    // A start queues the run's job right behind its create without waiting for it: a create sent by SHA alone,
    // refused by a Redis that forgot its scripts (new, restarted, flushed) and sent again, would land after the job.
    await withStore('create', async (store) => {
      const runId = 'fresh';
      const state = newState(runId);
      await store.redis.script('FLUSH');
      const created = store.create({ runId, state, body: {}, meta: null });
      const seen = store.redis.hexists(store.keys(runId).run, 'status');
      expect(await created).toMatchObject({ created: true });
      expect(await seen).toBe(1);
    });
  });
});

describe("a job's waited-on writes", () => {
  it('leave at once, the claim and each journal write; checkpoints and timed event writes at the end of the turn', async () => {
    // A job waits on its claim before anything else, and a tool call on the journal write before it: held for the end
    // of the turn, they would wait on the callbacks of every other run the process has in that turn.
    await withStore('now', async (store) => {
      const runId = 'waited';
      const state = newState(runId);
      await store.create({ runId, state, body: {}, meta: null });
      const writes = countWrites(store.redis as { stream: unknown });
      // Counted from the write before each call: a script Redis does not know yet is sent again, whole, on its own.
      const claimed = store.claim(runId, 0, { attempt: 1, withJournal: false });
      expect(writes()).toBe(1);
      const writesCount = (await claimed)!.run.writes!;
      let before = writes();
      const journaled = store.journal(runId, { 'call:x': '{}' }, [], writesCount);
      expect(writes()).toBe(before + 1);
      await journaled;
      before = writes();
      const appended = store.appendEvents(runId, [{ type: 'text', text: 'hi' }], writesCount + 1);
      const checkpointed = store.checkpoint({
        runId,
        seq: 0,
        state: { ...state, turn: 1 },
        status: 'running',
        events: [],
        writes: writesCount + 2,
      });
      expect(writes()).toBe(before);
      expect(await Promise.all([appended, checkpointed])).toEqual([undefined, 1]);
      expect(writes()).toBeGreaterThan(before);
    });
  });
});
