/**
 * What the three processes of the queue sample share: the Redis connection, and runs made with the same options
 * (queue name, key prefix, secret) in every process.
 */
import { Redis } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';

/** This process's Redis client; the runs open the connections they need from its options. */
export function connect(): Redis {
  // What BullMQ asks of a blocking connection; the runs open theirs from these options, and set it on them anyway.
  return new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
}

/** The runs, with the same options in every process. */
export function openRuns(connection: Redis): AgentRuns {
  const secret = process.env.RUNS_SECRET;
  if (!secret) throw new Error('Set RUNS_SECRET, the same value in every process');
  const name = process.env.RUNS_QUEUE ?? 'refunds';
  return new AgentRuns({ connection, secret, queueName: name, prefix: name });
}
