import fc from 'fast-check';
import { QueueKeys } from 'bullmq';
import type { Cluster } from 'ioredis';
import { InvalidRunIdError, RunCancelledError, type RunEvent } from '../../src/bullmq';
import { bullQueueName, runKeys } from '../../src/bullmq/store/keys';
import { connectCluster, openClusterRuns } from '../../samples/queue/cluster';
import type { RecordedRequest } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { TWO_LOOKUP_KINDS, twoLookupRun } from '../helpers/two-lookup-run';
import { fakeTool, user } from '../helpers/tools';
import { startWorker, type WorkerProcess } from './worker-processes';

// Worker processes compile the sources as they start: slow on a loaded 2-core machine.
jest.setTimeout(300_000);

/** Ids whose runs land on each of the three masters (slots 0-5460, 5461-10922, 10923-16383 as `--cluster create` splits them). */
const SPREAD_IDS = ['cl-a', 'cl-b', 'cl-c', 'cl-d', 'cl-e', 'cl-f'];

describe('AgentRuns on a Redis Cluster of three masters', () => {
  const bed = useQueueTestbed({ cluster: true });
  let direct: Cluster;
  const workers: WorkerProcess[] = [];

  beforeAll(() => {
    direct = bed.cluster.connect();
  });
  afterAll(() => direct.disconnect());
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.kill()));
  });

  /** The node (`host:port`) serving `key`. */
  async function nodeOf(key: string): Promise<string> {
    const slot = Number(await direct.cluster('KEYSLOT', key));
    const [host, port] = (await direct.cluster('SLOTS')).find(([from, to]) => slot >= from && slot <= to)![2];
    return `${host}:${port}`;
  }

  /** Every key on every master that matches `pattern`, with its slot. */
  async function keysOf(pattern: string): Promise<{ key: string; slot: number }[]> {
    const found: string[] = [];
    for (const node of direct.nodes('master')) found.push(...(await node.keys(pattern)));
    return Promise.all(found.map(async (key) => ({ key, slot: Number(await direct.cluster('KEYSLOT', key)) })));
  }

  it('runs multi-turn runs with tool calls over every master, each script in one slot; list finds them all', async () => {
    const runs = bed.open();
    const { runId, record, kinds, lookup } = await twoLookupRun(bed, runs);
    expect([record.status, record.text, record.state.turn]).toEqual(['completed', 'Done: 2 lookups.', 3]);
    assertValidHistory(record.state.messages);
    expect(kinds).toEqual(TWO_LOOKUP_KINDS);
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c2']);

    // More runs, with ids whose keys live on each master: the run keys' scripts run on every node.
    bed.server.enqueue(...SPREAD_IDS.map(() => ({ text: 'ok' })));
    for (const id of SPREAD_IDS) await runs.start({ runId: id, body: { model: 'm', messages: [user(id)] } });
    for (const id of SPREAD_IDS) expect((await runs.wait(id, { timeoutMs: 20_000 })).status).toBe('completed');
    const masters = new Set(await Promise.all(SPREAD_IDS.map((id) => nodeOf(runKeys(bed.prefix, id).run))));
    expect(masters.size).toBe(3);
    expect((await runs.list()).map((run) => run.runId).sort()).toEqual([runId, ...SPREAD_IDS].sort());

    // What the queue left in Redis: BullMQ's keys of the queue in one slot, each run's keys in one of its own.
    const queueKeys = await keysOf(`bull:{${bed.queueName}}:*`);
    expect(queueKeys.length).toBeGreaterThan(0);
    expect(new Set(queueKeys.map((k) => k.slot)).size).toBe(1);
    const runKeysFound = await keysOf(`${bed.prefix}:*`);
    const slotsByRun = new Map<string, Set<number>>();
    for (const { key, slot } of runKeysFound) {
      const id = key.slice(bed.prefix.length + 2, key.indexOf('}', bed.prefix.length));
      slotsByRun.set(id, (slotsByRun.get(id) ?? new Set()).add(slot));
    }
    expect([...slotsByRun.keys()].sort()).toEqual([runId, ...SPREAD_IDS].sort());
    for (const [id, slots] of slotsByRun) expect([id, slots.size]).toEqual([id, 1]);
  });

  it('runs a run with the runs and connection of the cluster sample (docs/queue.md)', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      REDIS_CLUSTER_NODES: bed.cluster.nodes.map((node) => `${node.host}:${node.port}`).join(','),
      RUNS_SECRET: 'sample secret',
      RUNS_QUEUE: bed.queueName,
    });
    try {
      const connection = connectCluster();
      bed.closeAfter({ close: async () => connection.disconnect() });
      const runs = bed.closeAfter(openClusterRuns(connection));
      bed.server.enqueue({ text: 'refunded' });
      await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('refund')] } });
      expect(await runs.wait(runId, { timeoutMs: 20_000 })).toMatchObject({ status: 'completed', text: 'refunded' });
      expect(await direct.exists(`${bed.queueName}:{${runId}}:run`)).toBe(1);
    } finally {
      process.env = saved;
    }
  });

  it('lets a reader resume with `after` on another connection: no gap, no duplicate', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    bed.server.enqueue(
      { text: 'x'.repeat(40), chunkSize: 1, chunkDelayMs: 15, toolCalls: [{ id: 'c1', name: 'lookup' }] },
      { text: 'y'.repeat(10), chunkSize: 1, chunkDelayMs: 5 },
    );
    const runs = bed.open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });

    const first: RunEvent[] = [];
    for await (const event of runs.events(runId)) {
      first.push(event);
      if (first.filter((e) => e.type === 'text').length === 10) break;
    }
    expect((await runs.get(runId)).status).toBe('running');
    const rest: RunEvent[] = [];
    for await (const event of bed.open().events(runId, { after: first[first.length - 1].id })) rest.push(event);

    const all: RunEvent[] = [];
    for await (const event of runs.events(runId)) all.push(event);
    expect([...first, ...rest]).toEqual(all);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all[all.length - 1]).toMatchObject({ type: 'status', status: 'completed' });
    expect(all.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('x'.repeat(40) + 'y'.repeat(10));
  });

  it('pauses a run for approval and goes on once another process decided it', async () => {
    // A cluster whose nodes give up on a command after a few retries, as apps set it: the worker's blocking
    // connections, which BullMQ wants without a limit, are the runs' own.
    const given = bed.cluster.connect({ redisOptions: { maxRetriesPerRequest: 3 } });
    bed.closeAfter({ close: async () => given.disconnect() });
    const runs = bed.open({ secret: 'queue secret', connection: given });
    const elsewhere = bed.open({ secret: 'queue secret' });
    const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge', arguments: { amount: 5 } }] }, { text: 'paid' });
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [charge] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });

    const waiting = await elsewhere.wait(runId, { timeoutMs: 20_000 });
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending.map((p) => p.call.id)).toEqual(['c1']);
    expect(charge.calls).toHaveLength(0);
    const token = await elsewhere.resumeToken(runId);
    expect(await elsewhere.decide(runId, { c1: { approve: true } }, { token })).toEqual({ undecided: [] });

    const done = await runs.wait(runId, { timeoutMs: 20_000 });
    expect([done.status, done.text]).toEqual(['completed', 'paid']);
    expect(charge.calls).toHaveLength(1);
  });

  it('cancels a running run from another process, aborting its tool', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hold = fakeTool('hold', async (ctx) => {
      started();
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      return { response: 'aborted' };
    });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'hold' }] }, { text: 'never' });
    const runs = bed.open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [hold] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    await running;

    await bed.open().cancel(runId);
    const record = await runs.wait(runId, { timeoutMs: 20_000 });
    expect([record.status, record.stopReason]).toEqual(['cancelled', 'aborted']);
    expect(hold.calls[0].signal.aborted).toBe(true);
    // A cancel, not a move to another worker: the tool can tell the two apart.
    expect(hold.calls[0].signal.reason).toBeInstanceOf(RunCancelledError);
    expect(bed.server.requests).toHaveLength(1);
  });

  it('goes on with a run on another worker process after the one running it was SIGKILLed mid-tool', async () => {
    // Turn 0: a journaled side effect, then a slow tool (where the doomed worker hangs); turn 1 answers.
    bed.server.enqueue(
      ...Array.from({ length: 20 }, () => (request: RecordedRequest) => {
        const messages = request.body.messages;
        const runId = String(messages[0].content).split(' ')[1];
        return messages.some((m) => m.role === 'assistant')
          ? { text: `done ${runId}` }
          : {
              toolCalls: [
                { id: `${runId}-a-r${request.index}`, name: 'record' },
                { id: `${runId}-b-r${request.index}`, name: 'slow' },
              ],
            };
      }),
    );
    const env = {
      REDIS_CLUSTER_PORTS: bed.cluster.nodes.map((node) => node.port).join(','),
      QUEUE: bed.queueName,
      PREFIX: bed.prefix,
      BASE_URL: bed.server.baseURL,
    };
    const started = (name: string, extra: Record<string, string> = {}) =>
      startWorker(name, { ...env, ...extra }).then((worker) => (workers.push(worker), worker));
    // The doomed worker's short lock lets the other take its job over soon; the other's is long, so a loaded
    // machine does not make it lose jobs it is still running.
    const [doomed] = await Promise.all([
      started('w1', { HANG_IN_SLOW: '1', CONCURRENCY: '1', LOCK_MS: '3000' }),
      started('w2'),
    ]);
    const runs = bed.open({ secret: 'test-secret' });
    const ids = ['k-0', 'k-1', 'k-2', 'k-3'];
    for (const id of ids) await runs.start({ runId: id, body: { model: 'm', messages: [user(`run ${id}`)] } });

    const [, hungRun] = (await doomed.line('HANG')).split(' ');
    await doomed.kill();
    const records = await Promise.all(ids.map((id) => runs.wait(id, { timeoutMs: 120_000 })));
    for (const record of records) {
      expect([record.runId, record.status, record.text]).toEqual([record.runId, 'completed', `done ${record.runId}`]);
      assertValidHistory(record.state.messages, record.runId);
    }
    // Each call's side effect once: the killed attempt's journaled call was not run again.
    for (const id of ids)
      for (const call of ['a', 'b'])
        expect([id, call, await direct.get(`${bed.prefix}:fx:${id}:${id}-${call}`)]).toEqual([id, call, '1']);
    const setups = await direct.lrange(`${bed.prefix}:setup:${hungRun}`, 0, -1);
    expect(setups[0]).toBe('w1');
    expect(setups[setups.length - 1]).toBe('w2');
  });

  it('keeps every script of a queue and of a run in one slot, whatever the queue name, run id and prefix', async () => {
    const slot = async (key: string) => Number(await direct.cluster('KEYSLOT', key));
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(text, text, text, async (name, runId, prefix) => {
        fc.pre(!name.includes(':') && !runId.includes(':') && !prefix.includes('{}'));
        let queue: string;
        try {
          queue = bullQueueName(name);
        } catch {
          // Refused: only a name with no tag to give.
          expect(name.startsWith('}')).toBe(true);
          return;
        }
        // The keys BullMQ's scripts take together: the queue's, and a job's with its lock.
        const keys = new QueueKeys('bull');
        const jobKey = keys.toKey(queue, `${runId}-0`);
        const queueSlots = await Promise.all(
          [...Object.values(keys.getKeys(queue)), jobKey, `${jobKey}:lock`].map(slot),
        );
        expect(new Set(queueSlots).size).toBe(1);
        if (runId.startsWith('}')) return;
        const runSlots = await Promise.all(Object.values(runKeys(prefix, runId)).map(slot));
        expect(new Set(runSlots).size).toBe(1);
      }),
      { numRuns: 200 },
    );
    await expect(bed.open().start({ runId: '}x', body: { model: 'm', messages: [] } })).rejects.toBeInstanceOf(
      InvalidRunIdError,
    );
    await expect(bed.open().start({ runId: '', body: { model: 'm', messages: [] } })).rejects.toBeInstanceOf(
      InvalidRunIdError,
    );
    // A queue name or prefix whose first braces give no tag is refused where the runs are made.
    expect(() => bed.open({ queueName: '}x' })).toThrow("cannot be empty or start with '}'");
    expect(() => bed.open({ prefix: 'app{}' })).toThrow("cannot hold an empty hash tag '{}'");
  });
});
