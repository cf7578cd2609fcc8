/**
 * Question: what does running on the queue (`agentcall/bullmq`) add to a run, next to the same run in-process?
 * Runs of 4 turns (3 with one tool call, then the answer) against a zero-latency scripted model in another process,
 * Redis on loopback. Latency: one run at a time. Throughput: 8 at a time (worker concurrency 8, in this process).
 * Budget (DESIGN §8): at most 2 Redis round-trips per turn beyond BullMQ's own.
 */
import { AgentRuns } from '../src/bullmq';
import { RedisRunStore as RunStore } from '../src/bullmq/redis-run-store';
import { runAgentLoop } from '../src/agentCall/run-agent-loop';
import { startBenchServer } from './lib/harness';
import { lookupDefinition } from './lib/lookup-tool';
import { startRedisServer } from './lib/redis-server';

const TOOL_TURNS = 3;
const TURNS = TOOL_TURNS + 1;
const SEQUENTIAL_RUNS = 30;
const CONCURRENT_RUNS = 120;
const CONCURRENCY = 8;

/** The store methods a worker calls per turn; each is one round-trip (one script, or one pipeline). */
const WORKER_CALLS = ['claim', 'checkpoint', 'journal', 'appendEvents', 'fail'] as const;

export async function queuedRuns(): Promise<void> {
  const server = await startBenchServer();
  const redis = await startRedisServer();
  const counts = countStoreCalls();
  const model = `bench-${TOOL_TURNS}-1`;
  const tools = [lookupDefinition(64)];
  const messages = [{ role: 'user' as const, content: 'Look things up.' }];
  const runs = new AgentRuns({ connection: { host: '127.0.0.1', port: redis.port }, queueName: 'bench' });
  try {
    await runs
      .worker({ concurrency: CONCURRENCY, setup: async () => ({ client: server.client, tools }) })
      .waitUntilReady();
    const inProcess = () =>
      runAgentLoop({ client: server.client, body: { model, messages }, tools, maxConsecutiveToolTurns: 0 });
    const queued = async () => {
      const { runId } = await runs.start({ body: { model, messages } });
      const record = await runs.wait(runId, { timeoutMs: 60_000 });
      if (record.status !== 'completed' || record.state.turn !== TURNS)
        throw new Error(`run ${runId}: ${record.status}`);
    };
    // Warm both paths (JIT, sockets, scripts) before measuring.
    await timed(5, 1, inProcess);
    await timed(5, 1, queued);

    const inLatency = await timed(SEQUENTIAL_RUNS, 1, inProcess);
    counts.reset();
    const queuedLatency = await timed(SEQUENTIAL_RUNS, 1, queued);
    const roundTrips = counts.total() / (SEQUENTIAL_RUNS * TURNS);
    const perCall = counts.summary();
    const inThroughput = await timed(CONCURRENT_RUNS, CONCURRENCY, inProcess);
    const queuedThroughput = await timed(CONCURRENT_RUNS, CONCURRENCY, queued);

    console.log(`queued runs: ${TURNS} turns per run (${TOOL_TURNS} with a tool call), Redis on loopback`);
    line('in-process run, one at a time', inLatency / SEQUENTIAL_RUNS, 'ms per run');
    line('queued run, one at a time', queuedLatency / SEQUENTIAL_RUNS, 'ms per run');
    line('added by the queue, per turn', (queuedLatency - inLatency) / SEQUENTIAL_RUNS / TURNS, 'ms');
    line(`in-process, ${CONCURRENCY} at a time`, (CONCURRENT_RUNS / inThroughput) * 1000, 'runs/s');
    line(`queued, worker concurrency ${CONCURRENCY}`, (CONCURRENT_RUNS / queuedThroughput) * 1000, 'runs/s');
    line('agentcall Redis round-trips per turn', roundTrips, `(${perCall} over ${SEQUENTIAL_RUNS * TURNS} turns)`);
  } finally {
    await runs.close();
    counts.restore();
    redis.stop();
    server.stop();
  }
}

/** Wall-clock ms to run `count` calls of `fn`, `parallel` at a time. */
async function timed(count: number, parallel: number, fn: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        await fn();
      }
    }),
  );
  return performance.now() - start;
}

function line(label: string, value: number, unit: string): void {
  console.log(`  ${label.padEnd(44)} ${value.toFixed(value < 10 ? 2 : 1).padStart(10)} ${unit}`);
}

/** Count the worker's store calls (each one round-trip) by wrapping them on the prototype. */
function countStoreCalls() {
  const tally = new Map<string, number>();
  const originals = WORKER_CALLS.map((name) => [name, RunStore.prototype[name]] as const);
  for (const [name, original] of originals) {
    (RunStore.prototype as unknown as Record<string, unknown>)[name] = function (this: RunStore, ...args: unknown[]) {
      tally.set(name, (tally.get(name) ?? 0) + 1);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  return {
    reset: () => tally.clear(),
    total: () => [...tally.values()].reduce((a, b) => a + b, 0),
    summary: () => [...tally].map(([name, n]) => `${name} ${n}`).join(', '),
    restore: () => {
      for (const [name, original] of originals)
        (RunStore.prototype as unknown as Record<string, unknown>)[name] = original;
    },
  };
}

if (require.main === module) void queuedRuns();
