/**
 * Question: where does the CPU of a queued run go, next to the same run in-process? The throughput of
 * `queued-runs.ts` swings with the load of a shared machine; the CPU each run costs each process swings less.
 * Runs of 4 turns (3 with one tool call, then the answer), 8 at a time, against a zero-latency scripted model in
 * another process and Redis on loopback; the worker, `start` and `wait` in this process. Prints, per run, the CPU
 * of this process, of Redis (`INFO cpu`) and of the model server, for `RUNS` runs (default 1200) after a warm-up
 * pass of as many; the same for the floor, a queue written by hand over bare BullMQ (`lib/bare-queue.ts`), and for the
 * queue with its worker in a process of its own (that process's CPU too). Then what one Redis command costs this
 * process, one in flight and 8 in flight. Profile it with `node --cpu-prof .bench/bench/queued-cpu.js`.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { inParallel, startBenchServer } from './lib/harness';
import { startQueueSides } from './lib/queue-sides';
import { startRedisServer } from './lib/redis-server';

const CONCURRENCY = 8;
const PASSES = 2;
/** PINGs per measurement of a command's cost, after a warm-up of as many. */
const PINGS = 20_000;

export async function queuedCpu(): Promise<void> {
  const runsPerPass = Number(process.env.RUNS ?? 1200);
  const server = await startBenchServer();
  const redis = await startRedisServer();
  const connection = { host: '127.0.0.1', port: redis.port };
  const stats = new Redis(connection);
  const queues = await startQueueSides(server, connection, 'bench-cpu', CONCURRENCY);
  try {
    const sides = {
      'in-process': queues.inProcess,
      queued: queues.queued,
      'bare queue': queues.bare,
      'split queue': queues.splitQueued,
    };
    console.log(`CPU per run: ${runsPerPass} runs of 4 turns, ${CONCURRENCY} at a time (after a warm-up pass)`);
    for (const [side, run] of Object.entries(sides)) {
      for (let pass = 0; pass < PASSES; pass++) {
        const redisBefore = await redisCpuMs(stats);
        const serverBefore = childCpuMs(server.pid);
        const workerBefore = childCpuMs(queues.split.worker.child.pid);
        const before = process.cpuUsage();
        const started = performance.now();
        await inParallel(runsPerPass, CONCURRENCY, run);
        if (pass < PASSES - 1) continue;
        const seconds = (performance.now() - started) / 1000;
        const used = process.cpuUsage(before);
        const own = (used.user + used.system) / 1000 / runsPerPass;
        const inRedis = ((await redisCpuMs(stats)) - redisBefore) / runsPerPass;
        const inServer = (childCpuMs(server.pid) - serverBefore) / runsPerPass;
        const inWorker = (childCpuMs(queues.split.worker.child.pid) - workerBefore) / runsPerPass;
        console.log(
          `  ${side.padEnd(12)} ${(runsPerPass / seconds).toFixed(0).padStart(5)} runs/s   this process ` +
            `${own.toFixed(2)} ms, Redis ${inRedis.toFixed(2)} ms, model server ${inServer.toFixed(2)} ms` +
            (side === 'split queue' ? `, worker process ${inWorker.toFixed(2)} ms` : '') +
            ' per run',
        );
      }
    }
    // What one Redis command costs this process depends on whether Redis slept since the last one: waking it and
    // being woken by its answer cost more than the command.
    console.log('CPU of this process per Redis command (PING; user + system):');
    for (const inFlight of [1, CONCURRENCY]) {
      const { user, system } = await pingCpu(stats, inFlight, PINGS);
      console.log(
        `  ${String(inFlight).padStart(2)} in flight   ${(user + system).toFixed(1).padStart(5)} µs ` +
          `(user ${user.toFixed(1)}, system ${system.toFixed(1)})`,
      );
    }
  } finally {
    await queues.close();
    stats.disconnect();
    redis.stop();
    server.stop();
  }
}

/** CPU ms Redis has used so far. */
async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = ['used_cpu_sys', 'used_cpu_user'].map((field) =>
    Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1] ?? 0),
  );
  return (seconds[0] + seconds[1]) * 1000;
}

/** CPU µs per command of `count` PINGs, `inFlight` at a time, after as many to warm up. */
async function pingCpu(redis: Redis, inFlight: number, count: number): Promise<{ user: number; system: number }> {
  let used = { user: 0, system: 0 };
  for (let pass = 0; pass < 2; pass++) {
    const before = process.cpuUsage();
    await inParallel(count, inFlight, () => redis.ping());
    used = process.cpuUsage(before);
  }
  return { user: used.user / count, system: used.system / count };
}

/** CPU ms a child process has used so far, from `/proc` (Linux; 0 elsewhere). */
function childCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

if (require.main === module) void queuedCpu();
