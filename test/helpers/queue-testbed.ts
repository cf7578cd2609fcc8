import { AgentRuns, type RunsConnection } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from './redis';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster';

/** The options of `new AgentRuns(...)`. */
export type AgentRunsOptions = ConstructorParameters<typeof AgentRuns>[0];

/** What a queue suite's tests share: a real Redis, a scripted model, and a queue and key prefix of their own. */
export type QueueTestbed = {
  /** One `redis-server` for the suite (not on a cluster testbed). */
  readonly redis: TestRedis;
  /** The suite's three-master Redis Cluster (a cluster testbed only). */
  readonly cluster: TestRedisCluster;
  /** What `open` connects with: the Redis's host and port, or a new ioredis `Cluster`, closed after the test. */
  connection(): RunsConnection;
  /** A scripted model, new for each test. */
  readonly server: ScriptedServer;
  /** This test's queue name and key prefix: no test sees what another left. */
  readonly queueName: string;
  readonly prefix: string;
  /** `AgentRuns` on this test's queue and prefix (a second one is another process sharing them), closed after it. */
  open(extra?: Partial<AgentRunsOptions>): AgentRuns;
  /** Close `closable` after the test, before what was opened earlier. */
  closeAfter<T extends { close(): Promise<void> }>(closable: T): T;
};

/**
 * Register the hooks of a queue suite and hand back what its tests use. Call it at the top of a `describe`. With
 * `{ cluster: true }` the suite runs on a local Redis Cluster of three masters, and `open` connects with a `Cluster`.
 *
 * @example
 * const bed = useQueueTestbed();
 * it('runs', async () => { const runs = bed.open(); … });
 */
export function useQueueTestbed(options: { cluster?: boolean } = {}): QueueTestbed {
  let redis: TestRedis | undefined;
  let cluster: TestRedisCluster | undefined;
  let server: ScriptedServer | undefined;
  let count = 0;
  const opened: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    if (options.cluster) cluster = await startRedisCluster();
    else redis = await startRedis();
  });
  afterAll(() => (cluster ?? redis)?.stop());
  beforeEach(async () => {
    server = await startScriptedServer();
    count++;
  });
  afterEach(async () => {
    for (const closable of opened.splice(0).reverse()) await closable.close();
    await server?.close();
  });

  const bed: QueueTestbed = {
    get redis() {
      if (!redis) throw new Error('the queue testbed is read before its Redis started, or runs on a cluster');
      return redis;
    },
    get cluster() {
      if (!cluster) throw new Error('the queue testbed is read before its cluster started, or runs on one Redis');
      return cluster;
    },
    connection() {
      if (!cluster) return { host: bed.redis.host, port: bed.redis.port };
      const connection = cluster.connect();
      bed.closeAfter({ close: async () => connection.disconnect() });
      return connection;
    },
    get server() {
      if (!server) throw new Error('the queue testbed is read outside a test');
      return server;
    },
    get queueName() {
      return `${(cluster ?? bed.redis).namespace}-q${count}`;
    },
    get prefix() {
      return `${(cluster ?? bed.redis).namespace}:${count}`;
    },
    open(extra = {}) {
      const connection = bed.connection();
      return bed.closeAfter(new AgentRuns({ connection, queueName: bed.queueName, prefix: bed.prefix, ...extra }));
    },
    closeAfter(closable) {
      opened.push(closable);
      return closable;
    },
  };
  return bed;
}
