#!/usr/bin/env node
/**
 * `agentcall-devtools --redis redis://127.0.0.1:6379`: the devtools page over the runs of an `AgentRuns` queue.
 * The runs' secret (for approving and rejecting) is read from `AGENTCALL_RUNS_SECRET`, never from the command line,
 * where other users of the machine could read it; the Redis URL, which may hold a password, from `AGENTCALL_REDIS_URL`
 * as well.
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { AgentRuns } from '../bullmq';
import { startDevtools } from './server';
import { bullmqRunSource } from './sources/bullmq';

const USAGE = `Usage: agentcall-devtools [--redis <url>] [--prefix agentcall] [--queue agentcall-runs] [--port <n>]
Environment:
  AGENTCALL_REDIS_URL    the Redis URL when --redis is not given; use it for a URL with a password, which
                         other users of the machine could read on the command line
  AGENTCALL_RUNS_SECRET  the runs' secret, to approve and reject from the page`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      redis: { type: 'string' },
      prefix: { type: 'string' },
      queue: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const redisUrl = values.redis ?? (process.env.AGENTCALL_REDIS_URL || undefined);
  if (values.help || !redisUrl) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  // One retry per command: a Redis that went away is reported on the page within seconds, not after a minute.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
  connection.on('error', () => undefined);
  const runs = new AgentRuns({
    connection,
    ...(values.queue ? { queueName: values.queue } : {}),
    ...(values.prefix ? { prefix: values.prefix } : {}),
    ...(process.env.AGENTCALL_RUNS_SECRET ? { secret: process.env.AGENTCALL_RUNS_SECRET } : {}),
  });
  const source = bullmqRunSource({ runs, connection, ...(values.prefix ? { prefix: values.prefix } : {}) });
  const devtools = await startDevtools({ source, ...(values.port ? { port: Number(values.port) } : {}) });
  console.log(`agentcall devtools: ${devtools.url}`);
  const stop = () => {
    void devtools
      .close()
      .then(() => runs.close())
      .finally(() => connection.disconnect());
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
