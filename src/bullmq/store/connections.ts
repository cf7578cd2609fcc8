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

/**
 * Call `listener` with each message on `channels` (the id of a run or a call), on a connection of its own; `close`
 * ends the subscription. Connection trouble is met by the reads: the client listens to its own errors.
 */
export async function subscribeTo(
  connection: RunsConnection,
  channels: string[],
  listener: (id: string) => void,
): Promise<{ close(): Promise<void> }> {
  const subscriber = openConnection(connection);
  subscriber.on('message', (from: string, id: string) => {
    if (channels.includes(from)) listener(id);
  });
  subscriber.on('error', () => undefined);
  try {
    await subscriber.subscribe(...channels);
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
  return { close: async () => subscriber.disconnect() };
}
