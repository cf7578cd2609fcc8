/**
 * The queue sample's runs on a Redis Cluster: the same options, connected with an ioredis `Cluster`. agentcall puts
 * the hash tags on the keys itself, so nothing else changes.
 */
import { Cluster } from 'ioredis';
import { AgentRuns } from '../../src/bullmq';

/** A client of the cluster from some of its nodes (`REDIS_CLUSTER_NODES`: `host:port`, separated by commas). */
export function connectCluster(): Cluster {
  const nodes = (process.env.REDIS_CLUSTER_NODES ?? '127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002')
    .split(',')
    .map((node) => new URL(`redis://${node}`))
    .map((url) => ({ host: url.hostname, port: Number(url.port || 6379) }));
  return new Cluster(nodes);
}

/** The runs on the cluster, with the same options in every process. */
export function openClusterRuns(connection: Cluster): AgentRuns {
  const secret = process.env.RUNS_SECRET;
  if (!secret) throw new Error('Set RUNS_SECRET, the same value in every process');
  const name = process.env.RUNS_QUEUE ?? 'refunds';
  // BullMQ's keys become `bull:{refunds}:…` and a run's `refunds:{<runId>}:…`: each set in one slot.
  return new AgentRuns({ connection, secret, queueName: name, prefix: name });
}
