import { Cluster } from 'ioredis';
import type { ClusterNode, ClusterOptions } from 'ioredis';

/**
 * An ioredis `Cluster` of the runs' own, opened from the startup nodes and options of the one given as `connection`
 * (which is left as it is). Its duplicates serve blocking reads (BullMQ makes a worker's connections as duplicates of
 * the one it is given; the store's event readers are duplicates): their nodes get `maxRetriesPerRequest: null`, as
 * BullMQ requires of a blocking connection, whatever the given cluster's `redisOptions` say.
 *
 * Unlike a single Redis's client (`CoalescedRedis`), its writes are not corked: each node has a socket of its own,
 * which ioredis opens and reopens as the slots move.
 */
export class RunsCluster extends Cluster {
  constructor(
    private readonly startup: ClusterNode[],
    options: ClusterOptions,
  ) {
    super(startup, options);
    // ioredis reconnects by itself and fails the commands a lost connection took, where their callers see it; an
    // `error` event no one listens to would only print "Unhandled error event" while a node is away.
    this.on('error', () => undefined);
  }

  /** A new cluster of the same nodes and options, for a blocking read (`maxRetriesPerRequest: null` on its nodes). */
  override duplicate(overrideStartupNodes: ClusterNode[] = [], overrideOptions: ClusterOptions = {}): RunsCluster {
    return new RunsCluster(overrideStartupNodes.length ? overrideStartupNodes : this.startup, {
      ...this.options,
      ...overrideOptions,
      redisOptions: { ...this.options.redisOptions, ...overrideOptions.redisOptions, maxRetriesPerRequest: null },
    });
  }

  /** The `RunsCluster` of the nodes and options of `cluster`. */
  static from(cluster: Cluster): RunsCluster {
    return new RunsCluster(startupNodes(cluster), cluster.options);
  }
}

/** The nodes `cluster` was made with: ioredis keeps them in a private field, which its own `duplicate` reads. */
function startupNodes(cluster: Cluster): ClusterNode[] {
  return (cluster as unknown as { startupNodes: ClusterNode[] }).startupNodes;
}
