import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { AgentRuns } from '../../src/bullmq';
import type { RunEvent, RunRecord } from '../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { PostgresRunStore } from '../../samples/queue/postgres-run-store';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';
import { effectKey, stepTools } from './fixtures/step-tools';
import { startWorker } from './worker-processes';

// One worker process per step: minutes on a loaded 2-core machine.
jest.setTimeout(30 * 60_000);
const ANSWER = 'The answer.';
/** PostgreSQL on 127.0.0.1:5432 with trust auth (or DATABASE_URL's); this file works in a schema of its own. */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `k_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

type Step = { name: string; detail: string };
type Point = { killAt: string; steps: Step[]; killed: boolean; runId: string; prefix: string; record: RunRecord };

/**
 * The kill at every step (`kill-at-every-step.test.ts`) on the PostgreSQL sample store: a run of three turns, two
 * tool calls on each of the first two, its worker SIGKILLed at each of its store writes (before it is sent and once
 * committed), model requests and tool calls in turn (the list is what a run printed), and a worker in this process
 * finishing it on the same store. The jobs stay in Redis.
 */
describe('the PostgreSQL sample store, a worker SIGKILLed at every step of a run', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let own: Redis;
  const cache = join(__dirname, '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const bundleDir = mkdtempSync(join(cache, 'agentcall-pg-step-worker-'));
  const stepWorker = join(bundleDir, 'pg-step-worker.js');

  beforeAll(async () => {
    buildSync({
      entryPoints: [join(__dirname, 'fixtures', 'pg-step-worker.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outfile: stepWorker,
      logLevel: 'warning',
    });
    const store = new PostgresRunStore({ connectionString: DATABASE_URL }, { schema });
    await store.migrate().finally(() => store.close());
    redis = await startRedis();
    own = new Redis({ host: redis.host, port: redis.port });
    server = await startScriptedServer();
    // Call ids are new on every request, as a real model's are: a turn asked again gets other ids.
    server.enqueue(
      ...Array.from({ length: 1000 }, () => (request: RecordedRequest) => {
        const turn = request.body.messages.filter((m) => m.role === 'assistant').length;
        if (turn >= 2) return { text: ANSWER };
        return { toolCalls: ['fast', 'slow'].map((name) => ({ id: `t${turn}-${name}-r${request.index}`, name })) };
      }),
    );
  });
  afterAll(async () => {
    own.disconnect();
    await server.close();
    await redis.stop();
    rmSync(bundleDir, { recursive: true, force: true });
    const client = new Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  });

  function openRuns(queueName: string): AgentRuns {
    const store = new PostgresRunStore({ connectionString: DATABASE_URL }, { schema });
    return new AgentRuns({ connection: { host: redis.host, port: redis.port }, queueName, store });
  }

  async function runPoint(killAt: string, label: string): Promise<Point & { events: RunEvent[] }> {
    const queueName = `${redis.namespace}-pgkill${label}`;
    const prefix = `${redis.namespace}:pgkill${label}`;
    const runs = openRuns(queueName);
    const doomed = await startWorker(
      `pgkill-${label}`,
      {
        REDIS_PORT: String(redis.port),
        QUEUE: queueName,
        PREFIX: prefix,
        BASE_URL: server.baseURL,
        DATABASE_URL,
        SCHEMA: schema,
        KILL_AT: killAt,
      },
      stepWorker,
    );
    try {
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
      const ended = runs.wait(runId, { timeoutMs: 120_000 });
      const killed = await Promise.race([doomed.exited.then(() => true), ended.then(() => false)]);
      // A step after the run's final write was committed (its `applied`) comes after the run ended: waited for.
      // Unkilled, the worker has made every step of the run once each write it sent was answered.
      if (!killed) await within(killAt ? doomed.exited : everyWriteAnswered(doomed.lines), 60_000);
      if (killed) {
        // The lock of the job it held would expire (it is never renewed): removed now, so no verdict waits for a clock.
        const locks = await own.keys(`bull:{${queueName}}:*:lock`);
        if (locks.length) await own.del(...locks);
        runs.worker({
          stalledInterval: 300,
          setup: async () => ({ client: server.client(), tools: stepTools(own, prefix), toolConcurrency: 2 }),
        });
      }
      const record = await ended;
      const events: RunEvent[] = [];
      for await (const event of runs.events(runId)) events.push(event);
      const steps = doomed.lines.filter((line) => line.startsWith('STEP ')).map(parseStep);
      return { killAt, steps, killed: doomed.child.signalCode === 'SIGKILL', runId, prefix, record, events };
    } finally {
      await doomed.kill();
      await runs.close();
    }
  }

  /** The calls that ran twice (each once more with its own key), after the point's checks passed. */
  async function check(point: Point & { events: RunEvent[] }): Promise<number> {
    const { record, events, runId, prefix, steps } = point;
    const where = `killed at ${point.killAt || 'no step'}`;
    expect([where, point.killed]).toEqual([where, point.killAt !== '']);
    expect([where, record.status, record.text]).toEqual([where, 'completed', ANSWER]);
    assertValidHistory(record.state.messages, where);
    const calls = record.state.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    const ids = calls.map((c) => c.id);
    expect([where, ids.length]).toEqual([where, 4]);
    const effects = new Map<string, string[]>();
    for (const key of await own.keys(effectKey(prefix, '*')))
      effects.set(key.slice(effectKey(prefix, '').length), await own.lrange(key, 0, -1));
    expect([where, [...effects.keys()].sort()]).toEqual([where, [...ids].sort()]);
    const acknowledged = acknowledgedCalls(steps);
    for (const [id, keys] of effects) {
      expect([where, id, keys.every((key) => key === `${runId}:${id}`)]).toEqual([where, id, true]);
      expect([where, id, keys.length <= (acknowledged.has(id) ? 1 : 2)]).toEqual([where, id, true]);
    }
    // From the start: each call's tool_call and tool_result once, a turn's results before the next turn's calls;
    // the answer once; one final status event, last.
    const at = (type: string, id: string) =>
      events.flatMap((e, i) =>
        (e.type === 'tool_call' && type === e.type && e.call.id === id) ||
        (e.type === 'tool_result' && type === e.type && e.callId === id)
          ? [i]
          : [],
      );
    for (const [index, id] of ids.entries()) {
      const [call, result] = [at('tool_call', id), at('tool_result', id)];
      const nextTurn = ids[index + 2 - (index % 2)];
      const before = nextTurn === undefined ? events.length : at('tool_call', nextTurn)[0];
      expect([where, id, call.length, result.length, call[0] < result[0] && result[0] < before]).toEqual([
        where,
        id,
        1,
        1,
        true,
      ]);
    }
    expect([where, events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')]).toEqual([where, ANSWER]);
    const finals = events.filter((e) => e.type === 'status' && ['completed', 'failed', 'cancelled'].includes(e.status));
    expect([where, finals.length, events.at(-1)]).toEqual([where, 1, finals[0]]);
    return [...effects.values()].filter((keys) => keys.length > 1).length;
  }

  it('ends the run once, with a valid history, no committed call again, and a stream with no gap and no repeat', async () => {
    const recorded = await runPoint('', 'recorded');
    await check(recorded);
    const names = recorded.steps.map((s) => s.name);
    // Claims, journal writes and checkpoints (the last the run's final write), model requests and tool calls.
    expect(names.filter((n) => n.startsWith('send ')).length).toBeGreaterThanOrEqual(6);
    expect(names.filter((n) => n.startsWith('tool effect ')).length).toBe(4);
    const failures: string[] = [];
    let twice = 0;
    for (const [index, killAt] of names.entries()) {
      const point = await runPoint(killAt, String(index + 1));
      try {
        twice += await check(point);
      } catch (error) {
        failures.push(String(error).split('\n').slice(0, 12).join('\n'));
      }
    }
    expect(failures).toEqual([]);
    if (process.env.KILL_STEPS_PRINT)
      process.stdout.write(`${names.length} steps killed; calls run twice: ${twice} of ${names.length * 4}\n`);
  });

  it('stores U+0000 in a call id, a tool result and streamed text, and reads each back as it was', async () => {
    const odd = 'a\u0000b\\0';
    const echo = fakeTool('echo', () => ({ response: `result ${odd}` }));
    // A server of its own: the kill test's replies are queued on the shared one.
    const model = await startScriptedServer();
    model.enqueue({ toolCalls: [{ id: `call-${odd}`, name: 'echo' }] }, { text: `answer ${odd}` });
    const runs = openRuns(`${redis.namespace}-pgnul`);
    try {
      await runs.worker({ setup: async () => ({ client: model.client(), tools: [echo] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user(`go ${odd}`)] } });
      const record = await runs.wait(runId, { timeoutMs: 30_000 });
      expect(record.status).toBe('completed');
      const events: RunEvent[] = [];
      for await (const event of runs.events(runId)) events.push(event);
      const results = events.flatMap((e) => (e.type === 'tool_result' ? [[e.callId, e.response]] : []));
      expect(results).toEqual([[`call-${odd}`, `result ${odd}`]]);
      expect(record.text).toBe(`answer ${odd}`);
      expect(record.state.messages[0]).toEqual(user(`go ${odd}`));
    } finally {
      await runs.close();
      await model.close();
    }
  });
});

/** `promise`, or nothing after `ms`: a step that never comes fails its point's checks instead of hanging the test. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/** Resolves once the worker has printed an `applied` step for every `send` step (or after a minute: checked after). */
async function everyWriteAnswered(lines: string[]): Promise<void> {
  const count = (kind: string) => lines.filter((line) => line.startsWith(`STEP ${kind} `)).length;
  const deadline = Date.now() + 60_000;
  while ((count('send') === 0 || count('send') > count('applied')) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

function parseStep(line: string): Step {
  const [name, detail = ''] = line.slice('STEP '.length).split(' | ');
  return { name, detail };
}

/** The calls whose result the store had committed before the worker died: a journal write or checkpoint after it. */
function acknowledgedCalls(steps: Step[]): Set<string> {
  const done = new Set<string>();
  const effects: string[] = [];
  const carried = new Map<string, string[]>();
  for (const { name, detail } of steps) {
    const write = /^(send|applied) (journal|checkpoint) @\d+$/.exec(name);
    if (/^tool effect /.test(name)) effects.push(detail);
    else if (write?.[1] === 'send') carried.set(detail, [...effects]);
    else if (write) for (const id of carried.get(detail) ?? []) done.add(id);
  }
  return done;
}
