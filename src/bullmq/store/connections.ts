import { Cluster, Redis } from 'ioredis';
import { CoalescedRedis } from './coalesced-redis';
import { RunsCluster } from './runs-cluster';
import type { RunsConnection } from '../types';

/** A client of the runs' own: on one Redis, or on a Redis Cluster. */
export type RunsClient = Redis | Cluster;

/**
 * A new client of our own for `connection`, built from its options (a client given is left as it is): on one Redis,
 * one whose commands of one turn of the event loop leave in one write ({@link CoalescedRedis}); on a Redis Cluster,
 * a {@link RunsCluster} of the same nodes.
 */
export function openConnection(connection: RunsConnection): RunsClient {
  if (connection instanceof Cluster) return RunsCluster.from(connection);
  const options = connection instanceof Redis ? connection.options : connection;
  return new CoalescedRedis(options);
}
