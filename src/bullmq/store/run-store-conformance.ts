import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RunStore } from './run-store';
import type { RunEvent, RunState } from '../types';

/**
 * The test functions the suite registers its cases with: jest's, vitest's, mocha's or `node:test`'s `describe` and
 * `it` fit as they are. The suite asserts with `node:assert`, so it needs no `expect`.
 */
export type ConformanceFramework = {
  describe: (name: string, body: () => void) => unknown;
  it: (name: string, body: () => Promise<void>) => unknown;
};

/**
 * Register the cases a {@link RunStore} must pass for the queue to run on it: creating, reading, claiming,
 * checkpointing (the compare-and-set), the journal, decisions, cancels and their subscription, failing, and
 * events (in order, resumable after any id, waited for). `makeStore` is called once per case and the store it
 * gives is closed at the end; cases use run ids of their own, so stores may share a database. Expiry is not
 * checked here: how a store drops old runs is its own.
 *
 * @example
 * // test/my-store.test.ts (jest or vitest)
 * import { runStoreConformance } from 'agentcall/bullmq';
 * runStoreConformance(() => new MyPostgresRunStore(pool), { describe, it });
 */
export function runStoreConformance(makeStore: () => RunStore | Promise<RunStore>, test: ConformanceFramework): void {
  const { describe, it } = test;
  const withStore = (body: (store: RunStore) => Promise<void>) => async () => {
    const store = await makeStore();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };
  const newId = () => `conformance-${randomUUID()}`;
  const stateOf = (runId: string, extra: Partial<RunState> = {}): RunState => ({
    v: 1,
    runId,
    messages: [{ role: 'user', content: 'go' }],
    turn: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    loopGuard: { signature: '', repeats: 0 },
    pending: [],
    ...extra,
  });
  const create = async (store: RunStore, runId = newId()) => {
    await store.create({ runId, state: stateOf(runId), body: { model: 'm', temperature: 0 }, meta: { tenant: 't' } });
    return runId;
  };
  const allEvents = async (store: RunStore, runId: string, after = '0'): Promise<RunEvent[]> => {
    const reader = store.events(runId);
    try {
      const out: RunEvent[] = [];
      for (let last = after; ;) {
        const batch = await reader.read(last, { blockMs: 1 });
        if (!batch.length) return out;
        out.push(...batch);
        last = batch[batch.length - 1].id;
      }
    } finally {
      reader.close();
    }
  };
  const statuses = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'status' ? [e.status] : []));
  /** A run claimed and checkpointed into `waiting` at sequence number 1, on call `c1`. */
  const waitingRun = async (store: RunStore, callIds: string[] = ['c1']) => {
    const runId = await create(store);
    await store.claim(runId, 0, { attempt: 1, withJournal: false });
    const calls = callIds.map((id) => ({
      id,
      type: 'function' as const,
      function: { name: 'charge', arguments: '{}' },
    }));
    const state = stateOf(runId, {
      turn: 1,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: calls },
        ...callIds.map((id) => ({ role: 'tool' as const, tool_call_id: id, content: 'awaiting approval' })),
      ],
      pending: calls.map((call) => ({ kind: 'approval' as const, call, params: {} })),
    });
    const seq = await store.checkpoint({
      runId,
      seq: 0,
      state,
      status: 'waiting',
      stopReason: 'interactive',
      events: [],
    });
    assert.equal(seq, 1);
    return runId;
  };

  describe('RunStore conformance', () => {
    it(
      'creates a queued run once, and reads it back with its last event id',
      withStore(async (store) => {
        const runId = newId();
        const state = stateOf(runId);
        const first = await store.create({ runId, state, body: { model: 'm' }, meta: { tenant: 't' } });
        assert.deepEqual(first, { created: true, status: 'queued', seq: 0 });
        const again = await store.create({ runId, state: stateOf(runId, { turn: 9 }), body: {}, meta: null });
        assert.deepEqual(again, { created: false, status: 'queued', seq: 0 });
        const { run, lastEventId } = await store.read(runId);
        assert.ok(run);
        assert.deepEqual(
          { ...run, state: run.state },
          { runId, status: 'queued', seq: 0, jobSeq: 0, state, body: { model: 'm' }, meta: { tenant: 't' } },
        );
        const events = await allEvents(store, runId);
        assert.deepEqual(
          events.map(({ id: _, ...e }) => e),
          [{ type: 'status', status: 'queued' }],
        );
        assert.equal(lastEventId, events[0].id);
        assert.deepEqual(await store.read(newId()), { lastEventId: '0' });
        const { run: noMeta } = await store.read(await createWithoutMeta(store));
        assert.equal(noMeta?.meta, null);
      }),
    );

    it(
      'claims a run only for its current job, marking it running once and each repeated attempt',
      withStore(async (store) => {
        const runId = await create(store);
        assert.equal(await store.claim(runId, 1, { attempt: 1, withJournal: false }), undefined);
        const claimed = await store.claim(runId, 0, { attempt: 1, withJournal: false });
        assert.equal(claimed?.run.status, 'running');
        assert.equal(claimed?.run.seq, 0);
        assert.equal((await store.read(runId)).run?.status, 'running');
        const retried = await store.claim(runId, 0, { attempt: 2, withJournal: true });
        assert.equal(retried?.run.status, 'running');
        const events = await allEvents(store, runId);
        assert.deepEqual(
          events.map(({ id: _, ...e }) => e),
          [
            { type: 'status', status: 'queued' },
            { type: 'status', status: 'running' },
            { type: 'status', status: 'running', attempt: 2 },
          ],
        );
        assert.equal(await store.claim(newId(), 0, { attempt: 1, withJournal: false }), undefined);
      }),
    );

    it(
      'keeps journal entries as given until the next checkpoint clears them',
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        const entries = { [`call:${runId}:c1`]: '{"response":"ok","outcome":"ok"}', 'tape:0:0': 'x'.repeat(10_000) };
        await store.journal(runId, entries, [{ type: 'text', text: 'hi' }]);
        await store.journal(runId, { 'call:other': '"é\\n\\u0000"' }, []);
        const claimed = await store.claim(runId, 0, { attempt: 2, withJournal: true });
        assert.deepEqual(Object.fromEntries(claimed!.journal), { ...entries, 'call:other': '"é\\n\\u0000"' });
        const without = await store.claim(runId, 0, { attempt: 3, withJournal: false });
        assert.equal(without!.journal.size, 0);
        await store.checkpoint({ runId, seq: 0, state: stateOf(runId, { turn: 1 }), status: 'running', events: [] });
        const after = await store.claim(runId, 0, { attempt: 4, withJournal: true });
        assert.equal(after!.journal.size, 0);
        assert.ok((await allEvents(store, runId)).some((e) => e.type === 'text' && e.text === 'hi'));
      }),
    );

    it(
      "keeps the journal through a checkpoint that asks to (an agent's turn), and makes its events final all the same",
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        const entries = { [`call:${runId}:beside`]: '{"response":"noted","outcome":"ok"}' };
        await store.journal(runId, entries, []);
        await store.appendEvents(runId, [{ type: 'text', text: 'made final by the checkpoint' }]);
        const agentTurn = stateOf(runId, { turn: 1 });
        assert.equal(
          await store.checkpoint({ runId, seq: 0, state: agentTurn, status: 'running', events: [], keepJournal: true }),
          1,
        );
        const claimed = await store.claim(runId, 0, { attempt: 2, withJournal: true });
        assert.deepEqual(Object.fromEntries(claimed!.journal), entries);
        assert.ok(
          (await allEvents(store, runId)).some((e) => e.type === 'text' && e.text === 'made final by the checkpoint'),
        );
        await store.checkpoint({ runId, seq: 1, state: stateOf(runId, { turn: 2 }), status: 'running', events: [] });
        assert.equal((await store.claim(runId, 0, { attempt: 3, withJournal: true }))!.journal.size, 0);
      }),
    );

    it(
      'stores any text as given, U+0000 included: journal fields and values, answers, events',
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        // A tool call id, a tool's result and a recorded response all come from the model or its endpoint.
        const odd = 'a\u0000b\\u0000\uffff\ud83d\ude00\n';
        const entries = { [`call:${runId}:${odd}`]: odd, [`tape:0:${odd}`]: `"${odd}"` };
        await store.journal(runId, entries, [{ type: 'text', text: odd }]);
        const claimed = await store.claim(runId, 0, { attempt: 2, withJournal: true });
        assert.deepEqual(Object.fromEntries(claimed!.journal), entries);
        const state = stateOf(runId, { turn: 1, messages: [{ role: 'assistant', content: odd }] });
        const events = [{ type: 'text' as const, text: odd }];
        const done = { runId, seq: 0, state, status: 'completed' as const, stopReason: 'completed', text: odd, events };
        assert.equal(await store.checkpoint({ ...done, output: { odd } }), 1);
        const { run } = await store.read(runId);
        assert.equal(run?.text, odd);
        assert.deepEqual(run?.output, { odd });
        assert.deepEqual(run?.state, state);
        const texts = (await allEvents(store, runId)).flatMap((e) => (e.type === 'text' ? [e.text] : []));
        assert.deepEqual(texts, [odd, odd]);
      }),
    );

    it(
      'deletes at a retried claim the events appended on their own since the last journal write or checkpoint',
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        const text = (t: string) => ({ type: 'text' as const, text: t });
        await store.appendEvents(runId, [text('made final by the journal write')]);
        await store.journal(runId, { 'call:x': '{}' }, [text('journaled')]);
        await store.appendEvents(runId, [text('lost 1'), text('lost 2')]);
        await store.claim(runId, 0, { attempt: 2, withJournal: true });
        await store.appendEvents(runId, [text('made final by the checkpoint')]);
        assert.equal(
          await store.checkpoint({ runId, seq: 0, state: stateOf(runId), status: 'running', events: [] }),
          1,
        );
        await store.claim(runId, 0, { attempt: 3, withJournal: true });
        const kept = (await allEvents(store, runId)).map((e) =>
          e.type === 'text' ? e.text : e.type === 'status' ? `${e.status}${e.attempt ?? ''}` : e.type,
        );
        assert.deepEqual(kept, [
          'queued',
          'running',
          'made final by the journal write',
          'journaled',
          'running2',
          'made final by the checkpoint',
          'running3',
        ]);
      }),
    );

    it(
      'checkpoints by compare-and-set on the sequence number, with its events after the others',
      withStore(async (store) => {
        const runId = await create(store);
        const turn = (n: number) => stateOf(runId, { turn: n });
        assert.equal(
          await store.checkpoint({ runId, seq: 0, state: turn(1), status: 'running', events: [] }),
          undefined,
        );
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        const events = [
          { type: 'text' as const, text: 'a' },
          { type: 'tool_result' as const, callId: 'c1', name: 'lookup', response: 'r', outcome: 'ok' as const },
        ];
        assert.equal(await store.checkpoint({ runId, seq: 0, state: turn(1), status: 'running', events }), 1);
        // A stale worker's save is refused and writes nothing.
        const stale = {
          runId,
          seq: 0,
          state: turn(7),
          status: 'running' as const,
          events: [{ type: 'text' as const, text: 'stale' }],
        };
        assert.equal(await store.checkpoint(stale), undefined);
        const { run } = await store.read(runId);
        assert.equal(run?.seq, 1);
        assert.equal(run?.jobSeq, 0);
        assert.deepEqual(run?.state, turn(1));
        assert.equal(run?.output, undefined);
        assert.equal(
          await store.checkpoint({ runId, seq: 1, state: turn(2), status: 'running', events: [], handOff: true }),
          2,
        );
        assert.equal((await store.read(runId)).run?.jobSeq, 2);
        // The job queued at 0 is not the run's job any more.
        assert.equal(await store.claim(runId, 0, { attempt: 2, withJournal: false }), undefined);
        assert.ok(await store.claim(runId, 2, { attempt: 1, withJournal: false }));
        const done = await store.checkpoint({
          runId,
          seq: 2,
          state: turn(3),
          status: 'completed',
          stopReason: 'completed',
          text: 'the answer',
          output: { city: 'Rome', tempC: 21.5, tags: ['sun'], note: null },
          events: [{ type: 'text', text: 'the answer' }],
        });
        assert.equal(done, 3);
        const ended = (await store.read(runId)).run;
        assert.equal(ended?.status, 'completed');
        assert.equal(ended?.stopReason, 'completed');
        assert.equal(ended?.text, 'the answer');
        // The typed answer comes back as the JSON it was given as.
        assert.deepEqual(ended?.output, { city: 'Rome', tempC: 21.5, tags: ['sun'], note: null });
        const all = (await allEvents(store, runId)).map(({ id: _, ...e }) => e);
        assert.deepEqual(all, [
          { type: 'status', status: 'queued' },
          { type: 'status', status: 'running' },
          ...events,
          { type: 'text', text: 'the answer' },
          { type: 'status', status: 'completed', stopReason: 'completed' },
        ]);
        assert.equal(
          await store.checkpoint({ runId, seq: 3, state: turn(4), status: 'running', events: [] }),
          undefined,
        );
        assert.equal(await store.claim(runId, 2, { attempt: 2, withJournal: false }), undefined);
      }),
    );

    it(
      'counts the run’s job writes, when it counts them: a write at another count writes nothing',
      withStore(async (store) => {
        const runId = await create(store);
        const writes = (await store.claim(runId, 0, { attempt: 1, withJournal: false }))?.run.writes;
        // A store that cannot lose writes it answered need not count them.
        if (writes === undefined) return;
        const text = (t: string) => [{ type: 'text' as const, text: t }];
        const state = stateOf(runId, { turn: 1 });
        await store.journal(runId, { a: '1' }, text('one'), writes);
        await store.appendEvents(runId, text('two'), writes + 1);
        // A count the store is past: a job that held the run before, which writes nothing now.
        await store.journal(runId, { b: '2' }, text('stale'), writes);
        await store.appendEvents(runId, text('stale'), writes);
        assert.equal(
          await store.checkpoint({ runId, seq: 0, state, status: 'running', events: text('stale'), writes }),
          undefined,
        );
        // A count ahead of the store's: it lost writes it had answered, and says so rather than write past the gap.
        await assert.rejects(store.journal(runId, {}, text('ahead'), writes + 5));
        await assert.rejects(store.appendEvents(runId, text('ahead'), writes + 5));
        await assert.rejects(
          store.checkpoint({ runId, seq: 0, state, status: 'running', events: text('ahead'), writes: writes + 5 }),
        );
        const saved = { runId, seq: 0, state, status: 'running' as const, events: text('three'), writes: writes + 2 };
        assert.equal(await store.checkpoint(saved), 1);
        assert.equal((await store.read(runId)).run?.writes, writes + 3);
        const texts = (await allEvents(store, runId)).flatMap((e) => (e.type === 'text' ? [e.text] : []));
        assert.deepEqual(texts, ['one', 'two', 'three']);
        // A later claim counts too: the job before it finds its next write refused.
        assert.equal(
          await store.checkpoint({
            runId,
            seq: 1,
            state,
            status: 'running',
            events: [],
            handOff: true,
            writes: writes + 3,
          }),
          2,
        );
        assert.equal((await store.claim(runId, 2, { attempt: 1, withJournal: false }))?.run.writes, writes + 5);
        await store.appendEvents(runId, text('stale'), writes + 4);
        assert.ok(!(await allEvents(store, runId)).some((e) => e.type === 'text' && e.text === 'stale'));
      }),
    );

    it(
      'stores a failed run’s error with its status event',
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        const error = { name: 'APIError', message: 'bad request', status: 400 };
        await store.checkpoint({
          runId,
          seq: 0,
          state: stateOf(runId),
          status: 'failed',
          stopReason: 'error',
          error,
          events: [],
        });
        const { run } = await store.read(runId);
        assert.deepEqual([run?.status, run?.stopReason, run?.error], ['failed', 'error', error]);
        assert.deepEqual(statuses(await allEvents(store, runId)).at(-1), 'failed');
      }),
    );

    it(
      'gives a waiting run its decisions once, at its sequence number only',
      withStore(async (store) => {
        const runId = await waitingRun(store);
        const decisions = { c1: { approve: true as const } };
        const outcome = async (decided: Promise<{ outcome: string; undecided: string[] }>) => (await decided).outcome;
        assert.equal(await outcome(store.decide(runId, 0, decisions)), 'stale');
        assert.deepEqual(await store.decide(runId, 1, decisions), { outcome: 'decided', undecided: [] });
        assert.deepEqual(await store.decide(runId, 1, decisions), { outcome: 'repeated', undecided: [] });
        assert.equal(await outcome(store.decide(runId, 1, { c1: { approve: false } })), 'stale');
        assert.equal(await outcome(store.decide(newId(), 0, decisions)), 'missing');
        const { run } = await store.read(runId);
        assert.deepEqual([run?.status, run?.seq, run?.jobSeq, run?.decisions], ['queued', 1, 1, decisions]);
        const claimed = await store.claim(runId, 1, { attempt: 1, withJournal: false });
        assert.deepEqual(claimed?.run.decisions, decisions);
        await store.checkpoint({ runId, seq: 1, state: stateOf(runId, { turn: 1 }), status: 'running', events: [] });
        assert.equal((await store.read(runId)).run?.decisions, undefined);
        assert.deepEqual(statuses(await allEvents(store, runId)), [
          'queued',
          'running',
          'waiting',
          'queued',
          'running',
        ]);
      }),
    );

    it(
      'gathers the decisions of a pause call by call, and queues the run once every pending call has one',
      withStore(async (store) => {
        const runId = await waitingRun(store, ['c1', 'c2', 'c3']);
        assert.deepEqual(await store.decide(runId, 1, { c2: { approve: true } }), {
          outcome: 'partial',
          undecided: ['c1', 'c3'],
        });
        // A later decision for a call replaces the earlier one while the run still waits.
        assert.deepEqual(await store.decide(runId, 1, { c2: { approve: false, reason: 'no' } }), {
          outcome: 'partial',
          undecided: ['c1', 'c3'],
        });
        let { run } = await store.read(runId);
        assert.deepEqual([run?.status, run?.decisions], ['waiting', { c2: { approve: false, reason: 'no' } }]);
        assert.equal(await store.claim(runId, 1, { attempt: 1, withJournal: false }), undefined);
        // Two deciders at once: neither decision is lost, and the run is queued exactly once.
        const both = await Promise.all([
          store.decide(runId, 1, { c1: { approve: true } }),
          store.decide(runId, 1, { c3: { approve: false } }),
        ]);
        assert.deepEqual(both.map((d) => d.outcome).sort(), ['decided', 'partial']);
        assert.deepEqual(both.find((d) => d.outcome === 'partial')?.undecided.length, 1);
        ({ run } = await store.read(runId));
        assert.deepEqual([run?.status, run?.jobSeq], ['queued', 1]);
        assert.deepEqual(run?.decisions, {
          c1: { approve: true },
          c2: { approve: false, reason: 'no' },
          c3: { approve: false },
        });
        // The same request sent again is `repeated`; another decision for a queued run is `stale`.
        assert.deepEqual(await store.decide(runId, 1, { c3: { approve: false } }), {
          outcome: 'repeated',
          undecided: [],
        });
        assert.equal((await store.decide(runId, 1, { c3: { approve: true } })).outcome, 'stale');
        assert.deepEqual(statuses(await allEvents(store, runId)), ['queued', 'running', 'waiting', 'queued']);
        assert.deepEqual(
          (await store.claim(runId, 1, { attempt: 1, withJournal: false }))?.run.decisions,
          run?.decisions,
        );
      }),
    );

    it(
      'cancels a run that has not ended, tells every subscriber, and leaves an ended run alone',
      withStore(async (store) => {
        const heard: string[] = [];
        const subscription = await store.onCancel((runId) => heard.push(runId));
        try {
          const runId = await create(store);
          await store.claim(runId, 0, { attempt: 1, withJournal: false });
          assert.equal(await store.cancel(runId), 'running');
          const { run } = await store.read(runId);
          assert.deepEqual([run?.status, run?.stopReason], ['cancelled', 'aborted']);
          assert.equal(
            await store.checkpoint({ runId, seq: 0, state: stateOf(runId), status: 'running', events: [] }),
            undefined,
          );
          assert.equal(await store.claim(runId, 0, { attempt: 2, withJournal: false }), undefined);
          assert.equal(await store.cancel(runId), 'cancelled');
          const waiting = await waitingRun(store);
          assert.equal(await store.cancel(waiting), 'waiting');
          assert.equal((await store.decide(waiting, 1, { c1: { approve: true } })).outcome, 'stale');
          assert.equal(await store.cancel(newId()), undefined);
          const events = await allEvents(store, runId);
          assert.deepEqual(events.at(-1), {
            id: events.at(-1)!.id,
            type: 'status',
            status: 'cancelled',
            stopReason: 'aborted',
          });
          for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
          assert.deepEqual(heard, [runId, waiting]);
        } finally {
          await subscription.close();
        }
      }),
    );

    it(
      'names each run that waits, ends, fails or is cancelled to onSettled subscribers, if the store has onSettled',
      withStore(async (store) => {
        if (!store.onSettled) return;
        const heard: string[] = [];
        const subscription = await store.onSettled((runId) => heard.push(runId));
        try {
          const goingOn = await create(store);
          await store.claim(goingOn, 0, { attempt: 1, withJournal: false });
          const state = stateOf(goingOn, { turn: 1 });
          assert.equal(await store.checkpoint({ runId: goingOn, seq: 0, state, status: 'running', events: [] }), 1);
          const waiting = await waitingRun(store);
          const completed = await create(store);
          await store.claim(completed, 0, { attempt: 1, withJournal: false });
          const done = stateOf(completed, { turn: 1 });
          await store.checkpoint({ runId: completed, seq: 0, state: done, status: 'completed', events: [] });
          const failed = await create(store);
          await store.fail(failed, 0, { name: 'Error', message: 'stalled' });
          const cancelled = await create(store);
          await store.cancel(cancelled);
          for (let i = 0; i < 100 && heard.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20));
          assert.deepEqual(heard, [waiting, completed, failed, cancelled]);
        } finally {
          await subscription.close();
        }
      }),
    );

    it(
      'fails a run whose job was given up on, unless it moved on to another job',
      withStore(async (store) => {
        const runId = await create(store);
        await store.claim(runId, 0, { attempt: 1, withJournal: false });
        await store.checkpoint({
          runId,
          seq: 0,
          state: stateOf(runId, { turn: 1 }),
          status: 'running',
          events: [],
          handOff: true,
        });
        const error = { name: 'Error', message: 'stalled' };
        assert.equal(await store.fail(runId, 0, error), false);
        assert.equal(await store.fail(runId, 1, error), true);
        const { run } = await store.read(runId);
        assert.deepEqual([run?.status, run?.stopReason, run?.error], ['failed', 'error', error]);
        assert.equal(await store.fail(runId, 1, error), false);
        assert.equal(statuses(await allEvents(store, runId)).at(-1), 'failed');
      }),
    );

    it(
      'lists its runs newest first, with status and model, up to the limit, if the store has list',
      withStore(async (store) => {
        if (!store.list) return;
        const ids: string[] = [];
        for (const model of ['m-1', 'm-2', 'm-3']) {
          const runId = newId();
          await store.create({ runId, state: stateOf(runId), body: { model }, meta: null });
          ids.push(runId);
          // Creation times a millisecond apart at least, so newest-first has one answer.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await store.claim(ids[2], 0, { attempt: 1, withJournal: false });
        const listed = (await store.list({ limit: 10_000 })).filter((run) => ids.includes(run.runId));
        assert.deepEqual(
          listed.map(({ runId, status, model }) => ({ runId, status, model })),
          [
            { runId: ids[2], status: 'running', model: 'm-3' },
            { runId: ids[1], status: 'queued', model: 'm-2' },
            { runId: ids[0], status: 'queued', model: 'm-1' },
          ],
        );
        for (const run of listed) assert.ok(run.updatedAt >= run.createdAt && run.createdAt > Date.now() - 600_000);
        assert.equal((await store.list({ limit: 2 })).length, 2);
      }),
    );

    it(
      'reads events in order after any id, and waits for the next one',
      withStore(async (store) => {
        const runId = await create(store);
        const texts = Array.from({ length: 30 }, (_, i) => ({ type: 'text' as const, text: `t${i}` }));
        await store.appendEvents(runId, texts.slice(0, 10));
        await store.appendEvents(runId, []);
        await store.appendEvents(runId, texts.slice(10));
        const all = await allEvents(store, runId);
        assert.deepEqual(
          all.slice(1).map(({ id: _, ...e }) => e),
          texts,
        );
        assert.equal(new Set(all.map((e) => e.id)).size, all.length);
        // Resuming after any id gives exactly what came after it.
        assert.deepEqual(await allEvents(store, runId, all[12].id), all.slice(13));
        const reader = store.events(runId);
        try {
          const limited = await reader.read('0', { blockMs: 1, count: 5 });
          assert.deepEqual(limited, all.slice(0, 5));
          const last = all[all.length - 1].id;
          assert.deepEqual(await reader.read(last, { blockMs: 20 }), []);
          const started = Date.now();
          const waited = reader.read(last, { blockMs: 10_000 });
          setTimeout(() => void store.appendEvents(runId, [{ type: 'reasoning', text: 'late' }]), 100);
          const [late] = await waited;
          assert.deepEqual({ ...late, id: undefined }, { id: undefined, type: 'reasoning', text: 'late' });
          assert.ok(Date.now() - started < 5000, 'a waiting read returns when an event comes');
        } finally {
          reader.close();
        }
        assert.deepEqual(await allEvents(store, newId()), []);
      }),
    );

    it(
      'reads events in the order appended when their ids grow a digit (ids are ordered as numbers, not as text)',
      withStore(async (store) => {
        const runId = await create(store);
        const [first] = await allEvents(store, runId);
        // Appended until an id is longer than the first one's: a store that sorts its ids as text reads the longer
        // ones first, and a reader that stops at the run's last status event never sees the shorter ones.
        const texts: string[] = [];
        for (let batch = 0; batch < 20; batch++) {
          const added = Array.from({ length: 100 }, (_, i) => `t${batch * 100 + i}`);
          texts.push(...added);
          await store.appendEvents(
            runId,
            added.map((text) => ({ type: 'text' as const, text })),
          );
          const ids = (await allEvents(store, runId)).map((e) => e.id);
          if (ids.some((id) => id.length > first.id.length)) break;
        }
        const read = await allEvents(store, runId);
        assert.deepEqual(
          read.map((e) => (e.type === 'text' ? e.text : e.type)),
          ['status', ...texts],
        );
      }),
    );
  });

  describe('RunStore conformance: closing', () => {
    it('ends a read that waits for events when the store closes, instead of at the end of its blockMs', async () => {
      // Not through `withStore`: this case closes the store itself, once.
      const store = await makeStore();
      const reader = store.events(newId());
      const started = Date.now();
      const reading = reader.read('0', { blockMs: 10_000 }).then(
        () => undefined,
        () => undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.close();
      await reading;
      reader.close();
      assert.ok(Date.now() - started < 5000, 'the read ended when the store closed');
    });
  });

  async function createWithoutMeta(store: RunStore): Promise<string> {
    const runId = newId();
    await store.create({ runId, state: stateOf(runId), body: {}, meta: null });
    return runId;
  }
}
