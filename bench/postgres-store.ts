/**
 * Question: what does the sample PostgreSQL run store (`samples/queue/postgres-run-store.ts`) add to a queued run's
 * turn, next to the default Redis store? Runs of 4 turns (3 with one tool call, then the answer) against a
 * zero-latency scripted model in another process, one at a time: an in-process run, then the same run queued on
 * each store, again and again; the median of the paired differences per turn. The jobs are in Redis either way
 * (its own `redis-server`, no persistence); PostgreSQL is the machine's (or DATABASE_URL's), as configured there
 * (its `synchronous_commit` is printed: with `on`, each commit waits for its WAL to reach the disk). A schema of
 * its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AgentRuns } from '../src/bullmq';
import { runAgentLoop } from '../src/run-agent-loop';
import { PostgresRunStore } from '../samples/queue/postgres-run-store';
import { median, startBenchServer } from './lib/harness';
import { lookupDefinition } from './lib/lookup-tool';
import { queuedRun } from './lib/queued-run';
import { startRedisServer } from './lib/redis-server';

const TURNS = 4;
const RUNS = 200;

export async function postgresStore(): Promise<void> {
  const database = { connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' };
  const schema = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const server = await startBenchServer();
  const redis = await startRedisServer();
  const connection = { host: '127.0.0.1', port: redis.port };
  const admin = new Client(database);
  await admin.connect();
  const store = new PostgresRunStore(database, { schema });
  await store.migrate();
  const model = `bench-${TURNS - 1}-1`;
  const tools = [lookupDefinition(64)];
  const messages = [{ role: 'user' as const, content: 'Look things up.' }];
  const sides = {
    redis: new AgentRuns({ connection, queueName: 'bench-redis-store' }),
    postgres: new AgentRuns({ connection, queueName: 'bench-postgres-store', store }),
  };
  try {
    for (const runs of Object.values(sides))
      await runs.worker({ concurrency: 8, setup: async () => ({ client: server.client, tools }) }).waitUntilReady();
    const inProcess = () =>
      runAgentLoop({ client: server.client, body: { model, messages }, tools, maxConsecutiveToolTurns: 0 });
    const added = { redis: [] as number[], postgres: [] as number[] };
    for (let i = 0; i < RUNS + 20; i++) {
      let started = performance.now();
      await inProcess();
      const inMs = performance.now() - started;
      for (const side of ['redis', 'postgres'] as const) {
        started = performance.now();
        await queuedRun(sides[side], { model, messages }, TURNS);
        // The first 20 rounds warm both sides up (JIT, connections, plans).
        if (i >= 20) added[side].push((performance.now() - started - inMs) / TURNS);
      }
    }
    const { rows } = await admin.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    console.log(`run stores: ${TURNS} turns per run, one run at a time, ${RUNS} runs a side`);
    console.log(`  added per turn, Redis store              ${median(added.redis).toFixed(2).padStart(8)} ms`);
    console.log(
      `  added per turn, PostgreSQL store sample  ${median(added.postgres).toFixed(2).padStart(8)} ms ` +
        `(synchronous_commit ${rows[0].synchronous_commit})`,
    );
  } finally {
    for (const runs of Object.values(sides)) await runs.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    redis.stop();
    server.stop();
  }
}

if (require.main === module) void postgresStore();
