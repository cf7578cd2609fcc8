import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { AgentRuns } from '../../../src/bullmq';
import type { RunEvent } from '../../../src/bullmq';
import type { ToolExecuteContext } from '../../../src/index';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../../src/testing';
import { assertValidHistory } from '../../helpers/history';
import { fakeTool, user } from '../../helpers/tools';
import { startRedisServer } from './redis-server';
import { deferred } from '../../helpers/deferred';

/**
 * A Redis whose machine can crash: `snapshot` keeps what Redis holds at that moment, `crashToSnapshot` SIGKILLs it and
 * starts it again on the same port from that older copy, as a machine crash under `appendfsync everysec` leaves it
 * with its last writes (up to a second of them, here more) gone although Redis had answered them.
 */
async function startCrashableRedis(): Promise<{
  port: number;
  snapshot(): Promise<void>;
  crashToSnapshot(): Promise<void>;
  stop(): Promise<void>;
}> {
  const redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'everysec']);
  const admin = new Redis({ port: redis.port, host: redis.host, lazyConnect: true, maxRetriesPerRequest: null });
  admin.on('error', () => undefined);
  return {
    port: redis.port,
    snapshot: async () => {
      await admin.call('SAVE');
      copyFileSync(join(redis.dir, 'dump.rdb'), join(redis.dir, 'checkpoint.rdb'));
    },
    crashToSnapshot: async () => {
      await redis.crash();
      // The older copy comes back; the AOF, which holds the writes after it, is gone with the machine's page cache.
      rmSync(join(redis.dir, 'appendonlydir'), { recursive: true, force: true });
      copyFileSync(join(redis.dir, 'checkpoint.rdb'), join(redis.dir, 'dump.rdb'));
      await redis.restart(['--appendonly', 'no']);
      await admin.call('CONFIG', 'SET', 'appendonly', 'yes');
    },
    stop: async () => {
      admin.disconnect();
      await redis.stop();
    },
  };
}

/**
 * Redis loses its last answered writes (DESIGN §24): the snapshot is taken once the first turn's checkpoint is
 * acknowledged, the run goes on through a second turn's checkpoint into a third turn's call, and then Redis comes
 * back from the snapshot. The worker, alive all along, finds its next write refused at a sequence number the store
 * is now behind: the run goes on from the checkpoint that survived.
 */
describe('Redis loses its last second of writes (a machine crash under appendfsync everysec)', () => {
  let redis: Awaited<ReturnType<typeof startCrashableRedis>>;
  // Each case has a model of its own: a script's unused replies never answer the next case.
  let server: ScriptedServer;

  beforeAll(async () => {
    redis = await startCrashableRedis();
  });
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());
  afterAll(() => redis.stop());

  it('ends the run once from the surviving checkpoint; a call whose result survived never runs again', async () => {
    const unhandled = jest.spyOn(console, 'error');
    const keys: Record<string, string[]> = { a: [], b: [], c: [] };
    const record = (ctx: ToolExecuteContext) => keys[ctx.call.id].push(ctx.idempotencyKey ?? 'none');
    const inFlight = deferred();
    const back = deferred();
    let snapshotTaken = false;
    const step = fakeTool('step', async (ctx) => {
      if (ctx.call.id === 'b' && !snapshotTaken) {
        // The first turn's checkpoint is acknowledged: this call waited for it.
        snapshotTaken = true;
        await redis.snapshot();
      }
      if (ctx.call.id === 'c' && keys.c.length === 0) {
        record(ctx);
        inFlight.resolve();
        await back.promise;
        return { response: 'c done' };
      }
      record(ctx);
      return { response: `${ctx.call.id} done` };
    });
    // The model answers by the turn it is asked for, as a real one asked the same history would give the same calls.
    const callOfTurn = ['a', 'b', 'c'];
    const reply = (request: RecordedRequest) => {
      const turn = request.body.messages.filter((m) => m.role === 'tool').length;
      return turn < callOfTurn.length
        ? { toolCalls: [{ id: callOfTurn[turn], name: 'step', arguments: {} }] }
        : { text: 'All done.' };
    };
    server.enqueue(...Array.from({ length: 12 }, () => reply));
    const connection = { host: '127.0.0.1', port: redis.port };
    const runs = new AgentRuns({ connection, queueName: 'lost', prefix: 'lost', backoffMs: 50 });
    try {
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [step] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });

      await inFlight.promise;
      await redis.crashToSnapshot();
      back.resolve();

      // `a`'s result was in the snapshot: it never ran again. `b`'s and `c`'s were lost: each ran at most once more.
      await expectEndedOnce(runs, runId, keys, ['a']);
      expectNoUnhandledErrors(unhandled);
    } finally {
      unhandled.mockRestore();
      await runs.close();
    }
  });

  it('a lost journal write: the next write finds the store behind it, and the stream keeps each call once', async () => {
    const unhandled = jest.spyOn(console, 'error');
    const keys: Record<string, string[]> = { a: [], b: [], c: [] };
    const inFlight = deferred();
    const back = deferred();
    const step = fakeTool('step', async (ctx) => {
      keys[ctx.call.id].push(ctx.idempotencyKey ?? 'none');
      if (ctx.call.id === 'b' && keys.b.length === 1) {
        inFlight.resolve();
        await back.promise;
      }
      return { response: `${ctx.call.id} done` };
    });
    const connection = { host: '127.0.0.1', port: redis.port };
    const runs = new AgentRuns({ connection, queueName: 'lost-journal', prefix: 'lost-journal', backoffMs: 50 });
    let started: Promise<{ runId: string }> | undefined;
    let snapshotTaken = false;
    const callOfTurn = ['a', 'b', 'c'];
    const reply = async (request: RecordedRequest) => {
      const turn = request.body.messages.filter((m) => m.role === 'tool').length;
      if (turn === 1 && !snapshotTaken) {
        snapshotTaken = true;
        // The first turn's checkpoint rides alongside this request: once it is stored, the snapshot holds the run
        // up to it and nothing of the second turn (its calls' journal write comes after this answer).
        const { runId } = await started!;
        while (!(await runs.get(runId)).state.messages.some((m) => m.role === 'tool')) await setTimeout(10);
        await redis.snapshot();
      }
      return turn < callOfTurn.length
        ? { toolCalls: [{ id: callOfTurn[turn], name: 'step', arguments: {} }] }
        : { text: 'All done.' };
    };
    server.enqueue(...Array.from({ length: 12 }, () => reply));
    try {
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [step] }) }).waitUntilReady();
      started = runs.start({ body: { model: 'm', messages: [user('go')] } });
      const { runId } = await started;

      // `b` runs after its call's journal write was answered; Redis then comes back without that write.
      await inFlight.promise;
      await redis.crashToSnapshot();
      back.resolve();

      await expectEndedOnce(runs, runId, keys, ['a', 'c']);
      expectNoUnhandledErrors(unhandled);
    } finally {
      unhandled.mockRestore();
      await runs.close();
    }
  });
});

/**
 * The run completed once with a valid history; each call in `once` ran once, the others at most once more, each
 * under its own key; read from the start, the stream holds each call's `tool_call` and `tool_result` once, the
 * answer's text once and one final status, last.
 */
async function expectEndedOnce(
  runs: AgentRuns,
  runId: string,
  keys: Record<string, string[]>,
  once: string[],
): Promise<void> {
  const done = await runs.wait(runId, { timeoutMs: 60_000 });
  expect([done.status, done.text]).toEqual(['completed', 'All done.']);
  assertValidHistory(done.state.messages);
  for (const [id, used] of Object.entries(keys)) {
    expect(used.length).toBeGreaterThanOrEqual(1);
    expect(used.length).toBeLessThanOrEqual(once.includes(id) ? 1 : 2);
    expect(new Set(used)).toEqual(new Set([`${runId}:${id}`]));
  }
  const all: RunEvent[] = [];
  for await (const event of runs.events(runId)) all.push(event);
  for (const id of Object.keys(keys)) {
    expect(all.filter((e) => e.type === 'tool_call' && e.call.id === id)).toHaveLength(1);
    expect(all.filter((e) => e.type === 'tool_result' && e.callId === id)).toHaveLength(1);
  }
  expect(all.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('All done.');
  const finals = all.filter((e) => e.type === 'status' && e.status === 'completed');
  expect([finals.length, all.at(-1)]).toEqual([1, finals[0]]);
}

/** No library client left an `error` event unhandled while Redis was away. */
function expectNoUnhandledErrors(consoleError: jest.SpyInstance): void {
  const messages = consoleError.mock.calls.map((args: unknown[]) => args.map(String).join(' '));
  expect(messages.filter((m) => m.includes('Unhandled error event'))).toEqual([]);
}
