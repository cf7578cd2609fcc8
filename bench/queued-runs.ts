/**
 * Question: what does running on the queue (`agentcall/bullmq`) add to a run, next to the same run in-process, and
 * how long does a killed worker's run wait before another worker takes it on?
 * Runs of 4 turns (3 with one tool call, then the answer) against a zero-latency scripted model in another process,
 * Redis on loopback. Latency: one run at a time, an in-process run and a queued one in turn; throughput: 8 at a time
 * (worker concurrency 8, in this process), in alternating rounds; so load on the machine hits both sides alike. The
 * throughput again with a model that streams at a real model's pace (`bench-paced-…`), which bounds both sides as it
 * does in production. The floor beside them: a hand-written queue over bare BullMQ (`lib/bare-queue.ts`: one job per
 * run, one `SET` per turn, no run record, events or journal), in the same rounds; and the queue laid out as a
 * deployment lays it out, its worker (concurrency 8) in a process of its own; and the in-process run again, against
 * itself: how far the machine alone moves a ratio (A/A). Crash recovery: a worker process holding a run in a tool
 * call is SIGKILLed; the time until another worker claims the run is measured.
 * Budget (DESIGN §24, the queue docs): queued throughput at least 0.95× the bare BullMQ queue's in the same rounds
 * (valid when the in-process side against itself stays within 0.95–1.05×), at most 5 ms added per turn. Round trips
 * are counted too: each turn's checkpoint goes out alongside the next model request, so no turn waits for it; a job's
 * claim (before `setup`) and a turn's journal write (before its first call runs) are waited for.
 */
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { AgentRuns } from '../src/bullmq';
import { RedisRunStore } from '../src/bullmq/store/redis-run-store';
import type { CheckpointInput } from '../src/bullmq/store/run-store';
import { runAgentLoop } from '../src/run-agent-loop';
import { forkQueueWorker } from './lib/fork-queue-worker';
import { inParallel, median, startBenchServer } from './lib/harness';
import { quantile } from './lib/per-run-samples';
import { queuedRun } from './lib/queued-run';
import type { lookupDefinition } from './lib/lookup-tool';
import { QUEUE_RUN_TURNS, startQueueSides } from './lib/queue-sides';
import { startRedisServer } from './lib/redis-server';

const TURNS = QUEUE_RUN_TURNS;
const TOOL_TURNS = TURNS - 1;
/** Rounds of throughput: a multiple of the 4 sides that take turns after the in-process one (each takes each place). */
const ROUNDS = Number(process.env.ROUNDS ?? 12);
const SEQUENTIAL_RUNS = 20;
const CONCURRENT_RUNS = 256;
const CONCURRENCY = 8;
const CRASHES = 3;
/**
 * A model that streams like a real one, for the throughput a team would see: 10 deltas per reply, 5 ms apart (a
 * reply in about 50 ms, faster than any hosted model), a `lookup` call on the first 3 turns.
 */
const PACED_MODEL = `bench-paced-${TOOL_TURNS}-10-5`;
const PACED_ROUNDS = 3;
/** Runs a side per paced round: the model's pace, not the machine's noise, sets these rounds' length. */
const PACED_RUNS = 64;
/** Lock of the worker that is killed, and how often the survivor looks for stalled jobs. */
const CRASH_LOCK_MS = 2000;
const CRASH_STALLED_MS = 500;

/** The store methods a worker calls; each is one round trip (one script, or one pipeline). */
const WORKER_CALLS = ['claim', 'checkpoint', 'journal', 'appendEvents', 'fail'] as const;

type Connection = { host: string; port: number };

export async function queuedRuns(): Promise<void> {
  const server = await startBenchServer();
  const redis = await startRedisServer();
  const connection = { host: '127.0.0.1', port: redis.port };
  const stats = new Redis(connection);
  const counts = countStoreCalls();
  const sides = await startQueueSides(server, connection, 'bench', CONCURRENCY);
  const { model, tools, messages, runs, inProcess, queued, bare, splitQueued } = sides;
  try {
    // Warm every path (JIT, sockets, scripts) before measuring, the concurrent one too: without it each side's first
    // rounds ran at 60 to 80% of its later ones, and the ratios of those rounds said more of warming than of the queue.
    for (const run of [inProcess, queued, bare, splitQueued]) await timed(5, 1, run);
    for (const run of [inProcess, queued, bare, splitQueued]) await timed(CONCURRENT_RUNS, CONCURRENCY, run);

    // Latency: one in-process run, then one queued run, again and again, so each pair meets the same load; the
    // median of the pairs' differences is what the queue adds.
    const latency = { inProcess: [] as number[], queued: [] as number[], added: [] as number[] };
    const throughput = {
      inProcess: [] as number[],
      queued: [] as number[],
      bare: [] as number[],
      split: [] as number[],
      again: [] as number[],
    };
    let queuedTurns = 0;
    let commands = 0;
    counts.reset();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < SEQUENTIAL_RUNS; i++) {
        const inMs = await timed(1, 1, inProcess);
        const before = await commandsProcessed(stats);
        const queuedMs = await timed(1, 1, queued);
        commands += (await commandsProcessed(stats)) - before - 1;
        latency.inProcess.push(inMs);
        latency.queued.push(queuedMs);
        latency.added.push(queuedMs - inMs);
      }
      queuedTurns += SEQUENTIAL_RUNS * TURNS;
      counts.pause();
      throughput.inProcess.push((CONCURRENT_RUNS / (await timed(CONCURRENT_RUNS, CONCURRENCY, inProcess))) * 1000);
      // The queues take turns going first, so none always follows the in-process side's garbage. The in-process run
      // takes a turn among them too: its ratio to the first is what the machine alone moves a ratio by (A/A).
      const queues = ['queued', 'bare', 'split', 'again'] as const;
      const runOf = { queued, bare, split: splitQueued, again: inProcess };
      for (const side of queues.map((_, i) => queues[(round + i) % queues.length]))
        throughput[side].push((CONCURRENT_RUNS / (await timed(CONCURRENT_RUNS, CONCURRENCY, runOf[side]))) * 1000);
      counts.resume();
    }
    const roundTrips = counts.total() / queuedTurns;
    const waitedFor = (counts.total() - counts.alongside()) / queuedTurns;
    const perCall = counts.summary();
    const inLatency = median(latency.inProcess);
    const queuedLatency = median(latency.queued);
    const added = median(latency.added);
    const inThroughput = median(throughput.inProcess);
    const queuedThroughput = median(throughput.queued);
    // Each round's two sides ran back to back, under the same load: their ratio drifts less than either side.
    const perRound = (side: number[], base: number[]) => side.map((rate, i) => rate / base[i]);
    const ratios = perRound(throughput.queued, throughput.inProcess);
    const bareRatios = perRound(throughput.bare, throughput.inProcess);
    const overBare = perRound(throughput.queued, throughput.bare);
    const splitRatios = perRound(throughput.split, throughput.inProcess);
    const againRatios = perRound(throughput.again, throughput.inProcess);
    counts.pause();
    const paced = await pacedThroughput(runs, server.client, tools, messages);
    const recovery = await crashRecovery(connection, server.client.baseURL, model, messages, tools);

    console.log(
      `queued runs: ${TURNS} turns per run (${TOOL_TURNS} with a tool call), Redis on loopback, node ${process.version}`,
    );
    line('in-process run, one at a time', inLatency, 'ms per run');
    line('queued run, one at a time', queuedLatency, 'ms per run');
    line('added by the queue, per turn', added / TURNS, 'ms (median of the paired differences)');
    // The tail of the same pairs: a pair whose queued run met a slow moment of the machine shows here too.
    line('  p50 / p99 of the pairs, per turn', quantile(latency.added, 0.5) / TURNS, 'ms p50');
    line('', quantile(latency.added, 0.99) / TURNS, `ms p99 (${latency.added.length} pairs)`);
    line(`in-process, ${CONCURRENCY} at a time`, inThroughput, 'runs/s');
    line(`queued, worker concurrency ${CONCURRENCY}`, queuedThroughput, 'runs/s');
    line('queued / in-process throughput', median(ratios), `× (median of ${ROUNDS} rounds' ratios: ${range(ratios)})`);
    line('in-process again / in-process (A/A)', median(againRatios), `× (${range(againRatios)}): the noise floor`);
    line(`bare BullMQ queue, concurrency ${CONCURRENCY}`, median(throughput.bare), 'runs/s (one SET per turn)');
    line('bare queue / in-process throughput', median(bareRatios), `× (${range(bareRatios)})`);
    line('queued / bare queue throughput', median(overBare), `× (${range(overBare)})`);
    // DESIGN §24: the figure counts only when the in-process side against itself stayed within 5% in the same rounds.
    const aa = median(againRatios);
    const valid = aa >= 0.95 && aa <= 1.05;
    console.log(
      `  queued / bare queue, target ≥ 0.95×: ${median(overBare) >= 0.95 ? 'met' : 'not met'}${valid ? '' : ` (not valid: A/A ${aa.toFixed(2)}× is outside 0.95–1.05)`}`,
    );
    line('queued, worker in a process of its own', median(throughput.split), 'runs/s (start and wait in this one)');
    line('  its throughput / in-process', median(splitRatios), `× (${range(splitRatios)})`);
    line(`paced model, in-process, ${CONCURRENCY} at a time`, paced.inProcess, `runs/s (${PACED_MODEL})`);
    line(`paced model, queued, concurrency ${CONCURRENCY}`, paced.queued, 'runs/s');
    line('paced model, queued / in-process', paced.queued / paced.inProcess, '×');
    line(
      'agentcall Redis round trips a turn waits for',
      waitedFor,
      `(${counts.alongside()} checkpoints sent alongside a model request)`,
    );
    line('agentcall Redis round trips per turn', roundTrips, `(${perCall} over ${queuedTurns} turns)`);
    line('Redis commands per turn, BullMQ included', commands / queuedTurns, '(start and wait included)');
    line(
      'SIGKILL to another worker claiming the run',
      median(recovery),
      `ms (median of ${CRASHES}; lockDuration ${CRASH_LOCK_MS}, stalledInterval ${CRASH_STALLED_MS})`,
    );
  } finally {
    await sides.close();
    stats.disconnect();
    counts.restore();
    redis.stop();
    server.stop();
  }
}

/**
 * Throughput with a model that streams at a real model's pace (each side `CONCURRENCY` at a time, in alternating
 * rounds): the model's time, not the CPU, bounds both sides, as it does in production.
 */
async function pacedThroughput(
  runs: AgentRuns,
  client: OpenAI,
  tools: ReturnType<typeof lookupDefinition>[],
  messages: { role: 'user'; content: string }[],
): Promise<{ inProcess: number; queued: number }> {
  const body = { model: PACED_MODEL, messages };
  const inProcess = () => runAgentLoop({ client, body, tools, maxConsecutiveToolTurns: 0 });
  const queued = () => queuedRun(runs, body);
  const rates = { inProcess: [] as number[], queued: [] as number[] };
  for (let round = 0; round < PACED_ROUNDS; round++) {
    rates.inProcess.push((PACED_RUNS / (await timed(PACED_RUNS, CONCURRENCY, inProcess))) * 1000);
    rates.queued.push((PACED_RUNS / (await timed(PACED_RUNS, CONCURRENCY, queued))) * 1000);
  }
  return { inProcess: median(rates.inProcess), queued: median(rates.queued) };
}

/**
 * Each time: a worker process takes a run and hangs in its first tool call; a worker in this process is ready; the
 * process is SIGKILLed, and the clock runs until the survivor claims the run (its `running` event of attempt 2).
 */
async function crashRecovery(
  connection: Connection,
  baseURL: string,
  model: string,
  messages: { role: 'user'; content: string }[],
  tools: ReturnType<typeof lookupDefinition>[],
): Promise<number[]> {
  const times: number[] = [];
  const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
  for (let i = 0; i < CRASHES; i++) {
    const queueName = `bench-crash-${i}`;
    const runs = new AgentRuns({ connection, queueName, prefix: queueName });
    const { child, message } = forkQueueWorker({
      REDIS_PORT: String(connection.port),
      QUEUE: queueName,
      BASE_URL: baseURL,
      LOCK_MS: String(CRASH_LOCK_MS),
      HANG: '1',
    });
    try {
      await message('ready');
      const hung = message('hung');
      const { runId } = await runs.start({ body: { model, messages } });
      await hung;
      await runs.worker({ stalledInterval: CRASH_STALLED_MS, setup: async () => ({ client, tools }) }).waitUntilReady();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const killedAt = performance.now();
      child.kill('SIGKILL');
      await exited;
      for await (const event of runs.events(runId)) {
        if (event.type === 'status' && event.status === 'running' && (event.attempt ?? 1) > 1) break;
      }
      times.push(performance.now() - killedAt);
      const record = await runs.wait(runId, { timeoutMs: 60_000 });
      if (record.status !== 'completed') throw new Error(`recovered run ${runId}: ${record.status}`);
    } finally {
      child.kill('SIGKILL');
      await runs.close();
    }
  }
  return times;
}

/** Commands Redis has processed so far (the `INFO` call itself counts one). */
async function commandsProcessed(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
}

/** Wall-clock ms to run `count` calls of `fn`, `parallel` at a time. */
async function timed(count: number, parallel: number, fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await inParallel(count, parallel, fn);
  return performance.now() - start;
}

/** The smallest and largest of `values`, as `min–max`. */
function range(values: number[]): string {
  return `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
}

function line(label: string, value: number, unit: string): void {
  console.log(`  ${label.padEnd(44)} ${value.toFixed(value < 10 ? 2 : 1).padStart(10)} ${unit}`);
}

/**
 * Count the worker's store calls (each one round trip) by wrapping them on the prototype, and those sent alongside a
 * model request, which no turn waits for: the checkpoints of turns the job goes on from (status `running`, no
 * hand-off), sent alongside the next.
 */
function countStoreCalls() {
  const tally = new Map<string, number>();
  let counting = true;
  let alongside = 0;
  const proto = RedisRunStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = WORKER_CALLS.map((name) => [name, proto[name]] as const);
  for (const [name, original] of originals) {
    proto[name] = function (this: RedisRunStore, ...args: unknown[]) {
      if (counting) tally.set(name, (tally.get(name) ?? 0) + 1);
      const input = args[0] as Partial<CheckpointInput>;
      if (counting && name === 'checkpoint' && input.status === 'running' && !input.handOff) alongside++;
      return original.apply(this, args);
    };
  }
  return {
    reset: () => {
      tally.clear();
      alongside = 0;
    },
    alongside: () => alongside,
    pause: () => (counting = false),
    resume: () => (counting = true),
    total: () => [...tally.values()].reduce((a, b) => a + b, 0),
    summary: () => [...tally].map(([name, n]) => `${name} ${n}`).join(', '),
    restore: () => {
      for (const [name, original] of originals) proto[name] = original;
    },
  };
}

if (require.main === module) void queuedRuns();
