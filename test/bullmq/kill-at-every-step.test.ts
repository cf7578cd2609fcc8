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
  killAt: number;
  steps: string[];
  killed: boolean;
  runId: string;
  prefix: string;
  record: RunRecord;
  events: RunEvent[];
  resumed: string[];
};

/**
 * A run of three turns, two tool calls on each of the first two (`fast` is journaled while `slow` still runs), its
 * worker SIGKILLed at each step in turn (every Redis write before it is sent and once applied, every model request
 * sent and streaming, every tool call at its start and after its side effect; the list is what the run itself
 * printed, not chosen by hand), and a worker in this process finishing it.
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
    // Call ids are new on every request, as a real model's are: a turn asked again gets other ids.
    server.enqueue(
      ...Array.from({ length: 2000 }, () => (request: RecordedRequest) => {
        const turn = request.body.messages.filter((m) => m.role === 'assistant').length;
        if (turn >= 2) return { text: ANSWER };
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

  async function runPoint(killAt: number): Promise<Point> {
    const queueName = `${redis.namespace}-kill${killAt}`;
    const prefix = `${redis.namespace}:kill${killAt}`;
    const runs = new AgentRuns({ connection: { host: redis.host, port: redis.port }, queueName, prefix });
    const doomed = await startWorker(
      `kill-${killAt}`,
      {
        REDIS_PORT: String(redis.port),
        QUEUE: queueName,
        PREFIX: prefix,
        BASE_URL: server.baseURL,
        KILL_AT: String(killAt),
      },
      stepWorker,
    );
    try {
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
      const ended = runs.wait(runId, { timeoutMs: 120_000 });
      const killed = await Promise.race([doomed.exited.then(() => true), ended.then(() => false)]);
      if (killed || killAt > 0) {
        // A kill may come after the run ended (BullMQ's job finished): the survivor then finds nothing to do.
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
      const steps = doomed.lines
        .filter((line) => line.startsWith('STEP '))
        .map((line) => line.split(' ').slice(2).join(' '));
      return { killAt, steps, killed: doomed.child.signalCode === 'SIGKILL', runId, prefix, record, events, resumed };
    } finally {
      await doomed.kill();
      await runs.close();
    }
  }

  async function check(point: Point): Promise<void> {
    const { record, events, runId, prefix, steps } = point;
    const where = `killed at step ${point.killAt} (${steps[point.killAt - 1] ?? 'none'})`;
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
    const acknowledged = acknowledgedCalls(steps.slice(0, point.killAt || steps.length));
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
  }

  it('ends the run once, with a valid history, no finished call again, and a stream with no gap and no repeat', async () => {
    const recorded = await runPoint(0);
    if (process.env.KILL_STEPS_PRINT) process.stdout.write(`${recorded.steps.join('\n')}\n`);
    await check(recorded);
    const count = recorded.steps.length;
    expect(count).toBeGreaterThan(20);
    const failures: string[] = [];
    let killed = 0;
    for (let killAt = 1; killAt <= count; killAt++) {
      const point = await runPoint(killAt);
      if (point.killed) killed++;
      try {
        await check(point);
      } catch (error) {
        failures.push(String(error).split('\n').slice(0, 12).join('\n'));
      }
    }
    expect(failures).toEqual([]);
    // Most steps are still there when the run is repeated: timed writes (lock renewals, event writes) come and go
    // with the machine's load (58 of 66 in one run).
    expect(killed).toBeGreaterThanOrEqual(Math.floor(count * 0.8));
  });
});

/**
 * The calls whose result Redis had applied before the worker died: a journal write or a checkpoint sent after the
 * call's side effect, and applied (a turn's results are written as they finish, or ride its checkpoint).
 */
function acknowledgedCalls(steps: string[]): Set<string> {
  const done = new Set<string>();
  const effects: string[] = [];
  const carried = new Map<string, string[]>();
  for (const step of steps) {
    const effect = /^tool effect (.+)$/.exec(step);
    const write = /^(send|applied) (#\d+) (hset|CHECKPOINT)$/.exec(step);
    if (effect) effects.push(effect[1]);
    else if (write?.[1] === 'send') carried.set(write[2], [...effects]);
    else if (write) for (const id of carried.get(write[2]) ?? []) done.add(id);
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
