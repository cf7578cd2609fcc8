import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';
import type { RunEvent, RunRecord } from '../../src/bullmq';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { startRedis, type TestRedis } from '../helpers/redis';
import { user } from '../helpers/tools';
import { effectKey, stepTools } from './fixtures/step-tools';
import { startWorker } from './worker-processes';

// One worker process per step: a few minutes on a loaded 2-core machine.
jest.setTimeout(30 * 60_000);
const ANSWER = 'The answer.';

/** What one kill did: the steps the worker printed, and the run as another worker finished it. */
type Point = {
  killAt: string;
  steps: Step[];
  killed: boolean;
  runId: string;
  prefix: string;
  record: RunRecord;
  events: RunEvent[];
  resumed: string[];
};

/** A step as the worker printed it: its name (`send CHECKPOINT @2`) and what it was about (a write's number, a call id). */
type Step = { name: string; detail: string };

/**
 * A run of three turns, two tool calls on each of the first two (`fast` is journaled while `slow` still runs), its
 * worker SIGKILLed at each step in turn (every Redis write before it is sent and once applied, every model request
 * sent and streaming, every tool call at its start and after its side effect; the list is what a run printed, not
 * chosen by hand), and a worker in this process finishing it. The worker makes what would vary with load happen a
 * set number of times (see `fixtures/step-worker.ts`), so every step of the list is there to be killed at.
 */
describe('a worker SIGKILLed at every step of a run', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let own: Redis;
  // The worker bundled once: compiling the sources in each of its processes would cost more than the whole run.
  // Under node_modules, so that the packages it leaves out resolve from there.
  const cache = join(__dirname, '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const bundleDir = mkdtempSync(join(cache, 'agentcall-step-worker-'));
  const stepWorker = join(bundleDir, 'step-worker.js');

  beforeAll(async () => {
    buildSync({
      entryPoints: [join(__dirname, 'fixtures', 'step-worker.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outfile: stepWorker,
      logLevel: 'warning',
    });
    redis = await startRedis();
    own = new Redis({ host: redis.host, port: redis.port });
    server = await startScriptedServer();
    // Call ids are new on every request, as a real model's are: a turn asked again gets other ids. The answer comes
    // in three deltas, each written on its own by the worker that names its steps.
    server.enqueue(
      ...Array.from({ length: 2000 }, () => (request: RecordedRequest) => {
        const turn = request.body.messages.filter((m) => m.role === 'assistant').length;
        if (turn >= 2) return { text: ANSWER, chunkSize: 4 };
        return {
          toolCalls: ['fast', 'slow'].map((name) => ({ id: `t${turn}-${name}-r${request.index}`, name })),
        };
      }),
    );
  });
  afterAll(async () => {
    own.disconnect();
    await server.close();
    await redis.stop();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  async function runPoint(killAt: string, label: string): Promise<Point> {
    const queueName = `${redis.namespace}-kill${label}`;
    const prefix = `${redis.namespace}:kill${label}`;
    const runs = new AgentRuns({ connection: { host: redis.host, port: redis.port }, queueName, prefix });
    const doomed = await startWorker(
      `kill-${label}`,
      { REDIS_PORT: String(redis.port), QUEUE: queueName, PREFIX: prefix, BASE_URL: server.baseURL, KILL_AT: killAt },
      stepWorker,
    );
    try {
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
      const ended = runs.wait(runId, { timeoutMs: 120_000 });
      const killed = await Promise.race([doomed.exited.then(() => true), ended.then(() => false)]);
      // A step after the run's last write (BullMQ's job finished) comes after the run ended: waited for.
      // Unkilled, the worker has made every step of the run once BullMQ's job is finished.
      const last = killAt ? doomed.exited : doomed.line('STEP applied moveToFinished');
      if (!killed) await withinMs(last, 60_000);
      if (killed) {
        // The lock of the job it held would expire (it is never renewed): removed now, so that no verdict waits for
        // a clock. A kill may come after the run ended (BullMQ's job finished): the survivor then finds nothing to do.
        const locks = await own.keys(`bull:{${queueName}}:*:lock`);
        if (locks.length) await own.del(...locks);
        runs.worker({
          stalledInterval: 300,
          setup: async () => ({ client: server.client(), tools: stepTools(own, prefix), toolConcurrency: 2 }),
        });
      }
      const record = await ended;
      const events = await readAll(runs, runId);
      const half = events[Math.floor(events.length / 2)].id;
      const resumed = [...events.filter((e) => e.id <= half).map((e) => e.id)];
      for await (const event of runs.events(runId, { after: half })) resumed.push(event.id);
      const steps = doomed.lines.filter((line) => line.startsWith('STEP ')).map(parseStep);
      return { killAt, steps, killed: doomed.child.signalCode === 'SIGKILL', runId, prefix, record, events, resumed };
    } finally {
      await doomed.kill();
      await runs.close();
    }
  }

  /** The calls that ran twice (each once more with its own key), after the point's checks passed. */
  async function check(point: Point): Promise<number> {
    const { record, events, runId, prefix, steps } = point;
    const where = `killed at ${point.killAt || 'no step'}`;
    expect([where, point.killed]).toEqual([where, point.killAt !== '']);
    expect([where, record.status, record.text]).toEqual([where, 'completed', ANSWER]);
    assertValidHistory(record.state.messages, where);
    const calls = record.state.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    expect([where, calls.map((c) => (c.type === 'function' ? c.function.name : c.type))]).toEqual([
      where,
      ['fast', 'slow', 'fast', 'slow'],
    ]);
    const ids = calls.map((c) => c.id);

    // Side effects: only of the calls in the history, each with its own key, at most twice; a call whose result
    // the store had acknowledged before the kill never again.
    const effectKeys = await own.keys(effectKey(prefix, '*'));
    const effects = new Map<string, string[]>();
    for (const key of effectKeys) effects.set(key.slice(effectKey(prefix, '').length), await own.lrange(key, 0, -1));
    expect([where, [...effects.keys()].sort()]).toEqual([where, [...ids].sort()]);
    const acknowledged = acknowledgedCalls(steps);
    for (const [id, keys] of effects) {
      expect([where, id, keys.every((key) => key === `${runId}:${id}`)]).toEqual([where, id, true]);
      expect([where, id, keys.length <= (acknowledged.has(id) ? 1 : 2)]).toEqual([where, id, true]);
    }

    // The stream from the start: each call's tool_call and tool_result once, in call order; the answer once; one
    // final status event, last.
    const of = (type: string) => events.filter((e) => e.type === type);
    expect([where, of('tool_call').map((e) => (e as { call: { id: string } }).call.id)]).toEqual([where, ids]);
    // Results come as the calls finish; each once, after its call, and a turn's before the next turn's calls.
    const positions = (type: string, id: string) =>
      events.flatMap((e, i) => (e.type === type && eventCallId(e) === id ? [i] : []));
    for (const [index, id] of ids.entries()) {
      const [call, result] = [positions('tool_call', id), positions('tool_result', id)];
      const nextTurn = ids[index + 2 - (index % 2)];
      const before = nextTurn === undefined ? events.length : positions('tool_call', nextTurn)[0];
      expect([where, id, call.length, result.length, call[0] < result[0] && result[0] < before]).toEqual([
        where,
        id,
        1,
        1,
        true,
      ]);
    }
    expect([
      where,
      of('text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ]).toEqual([where, ANSWER]);
    const finals = events.filter((e) => e.type === 'status' && ['completed', 'failed', 'cancelled'].includes(e.status));
    expect([where, finals.length, events.at(-1)]).toEqual([where, 1, finals[0]]);
    expect([where, point.resumed]).toEqual([where, events.map((e) => e.id)]);
    return [...effects.values()].filter((keys) => keys.length > 1).length;
  }

  it('ends the run once, with a valid history, no finished call again, and a stream with no gap and no repeat', async () => {
    // A first run loads the scripts into Redis: every later one sends each by its SHA alone, as a warm worker does.
    await runPoint('', 'warm');
    const recorded = await runPoint('', 'recorded');
    if (process.env.KILL_STEPS_PRINT) process.stdout.write(`${recorded.steps.map((s) => s.name).join('\n')}\n`);
    await check(recorded);
    // Up to BullMQ's job finished: what the worker does after it (looking for the next job) is no step of the run.
    const all = recorded.steps.map((s) => s.name);
    const finished = all.map((name) => name.startsWith('applied moveToFinished')).lastIndexOf(true);
    expect(finished).toBeGreaterThan(0);
    const names = all.slice(0, finished + 1);
    // Every kind of step is in the list: each write before it is sent and once applied, requests, calls.
    const kinds = new Set(names.map((name) => name.replace(/ @\d+$/, '').replace(/ (fast|slow)$/, '')));
    for (const kind of ['model request', 'model streaming', 'tool start', 'tool effect'])
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    for (const write of ['moveToActive', 'CLAIM', 'JOURNAL', 'CHECKPOINT', 'APPEND_EVENTS', 'moveToFinished'])
      for (const when of ['send', 'applied']) expect([write, kinds.has(`${when} ${write}`)]).toEqual([write, true]);
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
});

/** `promise`, or nothing after `ms`: a step that never comes fails its point's checks instead of hanging the test. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

function parseStep(line: string): Step {
  const [name, detail = ''] = line.slice('STEP '.length).split(' | ');
  return { name, detail };
}

/**
 * The calls whose result Redis had applied before the worker died: a journal write or a checkpoint sent after the
 * call's side effect, and applied (a turn's results are written as they finish, or ride its checkpoint).
 */
function acknowledgedCalls(steps: Step[]): Set<string> {
  const done = new Set<string>();
  const effects: string[] = [];
  const carried = new Map<string, string[]>();
  for (const { name, detail } of steps) {
    const write = /^(send|applied) (JOURNAL|CHECKPOINT) @\d+$/.exec(name);
    if (/^tool effect /.test(name)) effects.push(detail);
    else if (write?.[1] === 'send') carried.set(detail, [...effects]);
    else if (write) for (const id of carried.get(detail) ?? []) done.add(id);
  }
  return done;
}

function eventCallId(event: RunEvent): string | undefined {
  if (event.type === 'tool_call') return event.call.id;
  return event.type === 'tool_result' ? event.callId : undefined;
}

/** Every event of an ended run, from the start. */
async function readAll(runs: AgentRuns, runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runs.events(runId)) events.push(event);
  return events;
}
