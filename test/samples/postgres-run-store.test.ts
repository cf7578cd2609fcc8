import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { runStoreConformance, type RunSetup } from '../../src/bullmq';
import { bullmqRunSource } from '../../src/devtools/queue';
import { PostgresRunStore } from '../../samples/queue/postgres-run-store';
import { assertValidHistory } from '../helpers/history';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { TWO_LOOKUP_KINDS, twoLookupRun } from '../helpers/two-lookup-run';
import { unusedPort } from '../helpers/network';
import { fakeTool, user } from '../helpers/tools';

/** The machine's PostgreSQL (or DATABASE_URL's); each run of this file works in a schema of its own. */
const config = { connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' };
const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

beforeAll(async () => {
  const store = new PostgresRunStore(config, { schema });
  try {
    await store.migrate();
  } catch (error) {
    throw new Error(`These tests need PostgreSQL on 127.0.0.1:5432, or DATABASE_URL: ${String(error)}`, {
      cause: error,
    });
  } finally {
    await store.close();
  }
});
afterAll(async () => {
  const client = new Client(config);
  await client.connect();
  await client.query(`DROP SCHEMA ${schema} CASCADE`);
  await client.end();
});

describe('samples/queue/postgres-run-store: the RunStore contract on PostgreSQL', () => {
  runStoreConformance(() => new PostgresRunStore(config, { schema }), { describe, it });
});

describe('samples/queue/postgres-run-store: AgentRuns on PostgreSQL (jobs in Redis)', () => {
  const bed = useQueueTestbed();
  const open = () => bed.open({ store: new PostgresRunStore(config, { schema }), allowDecideWithoutToken: true });

  it('runs a multi-turn run to its answer, and reads back every event in order', async () => {
    const { record, lookup, kinds } = await twoLookupRun(bed, open());
    expect(record).toMatchObject({ status: 'completed', text: 'Done: 2 lookups.', meta: { tenant: 'a' } });
    expect(record.state.turn).toBe(3);
    assertValidHistory(record.state.messages);
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c2']);
    expect(kinds).toEqual(TWO_LOOKUP_KINDS);
  });

  it('journals the calls of a turn that run side by side, each run once, their results in the history', async () => {
    const order: string[] = [];
    const lookup = fakeTool('lookup', async ({ call }) => {
      // The first call finishes while the second still runs: its result is journaled on its own.
      await new Promise((resolve) => setTimeout(resolve, call.id === 'a' ? 10 : 200));
      order.push(call.id);
      return { response: `result of ${call.id}` };
    });
    bed.server.enqueue(
      {
        toolCalls: [
          { id: 'a', name: 'lookup', arguments: { q: 1 } },
          { id: 'b', name: 'lookup', arguments: { q: 2 } },
        ],
      },
      { text: 'Both found.' },
    );
    const runs = open();
    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [lookup], toolConcurrency: 2 });
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('both')] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(record).toMatchObject({ status: 'completed', text: 'Both found.' });
    expect(order).toEqual(['a', 'b']);
    expect(record.state.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'result of a',
      'result of b',
    ]);
  });

  it('completes a run whose answer holds U+0000, at its first attempt', async () => {
    const answer = 'before\u0000after';
    bed.server.enqueue({ text: answer });
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('odd')] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(record).toMatchObject({ status: 'completed', text: answer });
    expect(bed.server.requests).toHaveLength(1);
  });

  it('keeps at most maxEvents events of a run, the newest, its last status event last', async () => {
    const store = new PostgresRunStore(config, { schema, maxEvents: 20 });
    bed.closeAfter(store);
    const runId = `cap-${randomUUID()}`;
    const state = { v: 1 as const, runId, messages: [user('go')], turn: 0 };
    const run = { ...state, usage: { inputTokens: 0, outputTokens: 0 }, loopGuard: { signature: '', repeats: 0 } };
    await store.create({ runId, state: { ...run, pending: [] }, body: { model: 'm' }, meta: null });
    await store.claim(runId, 0, { attempt: 1, withJournal: false });
    for (let i = 0; i < 6; i++)
      await store.appendEvents(
        runId,
        Array.from({ length: 10 }, (_, j) => ({ type: 'text' as const, text: `${i * 10 + j}` })),
      );
    await store.checkpoint({
      runId,
      seq: 0,
      state: { ...run, pending: [] },
      status: 'completed',
      stopReason: 'completed',
      text: 'done',
      events: [{ type: 'text', text: 'done' }],
    });
    const reader = store.events(runId);
    const events = await reader.read('0', { blockMs: 0, count: 1000 });
    reader.close();
    expect(events).toHaveLength(20);
    expect(events.at(-2)).toMatchObject({ type: 'text', text: 'done' });
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed' });
    expect(events.at(0)).toMatchObject({ type: 'text', text: '42' });
  });

  it('pauses for an approval, and runs the approved call once after the decision, from another process', async () => {
    const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge', arguments: { amount: 5 } }] });
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [charge] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    expect(await runs.wait(runId, { timeoutMs: 20_000 })).toMatchObject({ status: 'waiting' });
    expect(charge.calls).toHaveLength(0);

    bed.server.enqueue({ text: 'Charged 5.' });
    await open().decide(runId, { c1: { approve: true } });
    expect(await runs.wait(runId, { timeoutMs: 20_000 })).toMatchObject({ status: 'completed', text: 'Charged 5.' });
    expect(charge.calls).toHaveLength(1);
  });

  it('cancels a running run within its tool call: the tool is aborted and the run ends cancelled', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = fakeTool('slow', async ({ signal }) => {
      started();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { response: 'stopped' };
    });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'slow' }] });
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [slow] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('wait')] } });
    await running;
    const cancelledAt = Date.now();
    await open().cancel(runId);
    expect(await runs.wait(runId, { timeoutMs: 20_000 })).toMatchObject({ status: 'cancelled', stopReason: 'aborted' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slow.calls[0].signal.aborted).toBe(true);
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
  });

  it('shows its runs to the devtools source: listed by the store, each event at a time of this run', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'Found it.' });
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();
    const startedAt = Date.now();
    const { runId } = await runs.start({ body: { model: 'm-pg', messages: [user('find')] } });
    await runs.wait(runId, { timeoutMs: 20_000 });
    const source = bullmqRunSource({ runs, pollMs: 100 });
    try {
      expect((await source.list()).find((run) => run.runId === runId)).toMatchObject({
        status: 'completed',
        model: 'm-pg',
        turns: 2,
        toolCalls: 1,
      });
      let page = await source.page(runId, { offset: 0, limit: 50, maxChars: 1000 });
      for (
        let i = 0;
        i < 100 && !page?.items.some((item) => item.kind === 'status' && item.status === 'completed');
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        page = await source.page(runId, { offset: 0, limit: 50, maxChars: 1000 });
      }
      const times = page!.items.map((item) => (item.kind === 'status' ? item.at : item.startedAt));
      expect(page!.items.map((item) => item.kind)).toEqual(expect.arrayContaining(['request', 'tool', 'status']));
      // A PostgreSQL event id is a row number, not a time: the page must not place the run in 1970.
      for (const at of times) expect(at).toBeGreaterThanOrEqual(startedAt - 1000);
    } finally {
      await source.close?.();
    }
  });

  it("names the runs' store, not Redis, on the devtools page when that store cannot be reached", async () => {
    const port = await unusedPort();
    const unreachable = new PostgresRunStore({ host: '127.0.0.1', port, user: 'postgres' }, { schema });
    const runs = bed.open({ store: unreachable });
    const source = bullmqRunSource({ runs, pollMs: 100 });
    try {
      await expect(source.list()).rejects.toThrow(/^The runs' store is unreachable: .*ECONNREFUSED/);
    } finally {
      await source.close?.();
    }
  });
});
