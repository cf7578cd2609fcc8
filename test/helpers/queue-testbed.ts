import { AgentRuns } from '../../src/bullmq';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { startRedis, type TestRedis } from './redis';

/** The options of `new AgentRuns(...)`. */
export type AgentRunsOptions = ConstructorParameters<typeof AgentRuns>[0];

/** What a queue suite's tests share: a real Redis, a scripted model, and a queue and key prefix of their own. */
export type QueueTestbed = {
  /** One `redis-server` for the suite. */
  readonly redis: TestRedis;
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
 * Register the hooks of a queue suite and hand back what its tests use. Call it at the top of a `describe`.
 *
 * @example
 * const bed = useQueueTestbed();
 * it('runs', async () => { const runs = bed.open(); … });
 */
export function useQueueTestbed(): QueueTestbed {
  let redis: TestRedis | undefined;
  let server: ScriptedServer | undefined;
  let count = 0;
  const opened: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());
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
      if (!redis) throw new Error('the queue testbed is read before its Redis started');
      return redis;
    },
    get server() {
      if (!server) throw new Error('the queue testbed is read outside a test');
      return server;
    },
    get queueName() {
      return `${bed.redis.namespace}-q${count}`;
    },
    get prefix() {
      return `${bed.redis.namespace}:${count}`;
    },
    open(extra = {}) {
      const { host, port } = bed.redis;
      return bed.closeAfter(
        new AgentRuns({ connection: { host, port }, queueName: bed.queueName, prefix: bed.prefix, ...extra }),
      );
    },
    closeAfter(closable) {
      opened.push(closable);
      return closable;
    },
  };
  return bed;
}
