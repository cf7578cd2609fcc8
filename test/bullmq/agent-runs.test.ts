import crypto from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { RedisRunStore, type RunEvent } from '../../src/bullmq';
import { assertValidHistory } from '../helpers/history';
import { countWrites } from '../helpers/count-writes';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { TWO_LOOKUP_KINDS, twoLookupRun } from '../helpers/two-lookup-run';
import { fakeTool, user } from '../helpers/tools';

describe('AgentRuns on a real Redis', () => {
  const bed = useQueueTestbed();
  /** A fresh queue and key prefix per test, so no test sees what another left. */
  const open = bed.open;

  it('runs a multi-turn run one turn per job and records every event', async () => {
    const { runId, record, events, lookup, kinds } = await twoLookupRun(bed, open());

    expect(record.status).toBe('completed');
    // Handed to the wait by the worker beside it, as another process reads it.
    expect(record).toStrictEqual(await open().get(runId));
    expect(record.stopReason).toBe('completed');
    expect(record.text).toBe('Done: 2 lookups.');
    expect(record.meta).toEqual({ tenant: 'a' });
    expect(record.state.turn).toBe(3);
    assertValidHistory(record.state.messages);
    expect(record.state.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(lookup.calls.map((c) => c.call.id)).toEqual(['c1', 'c2']);
    expect(kinds).toEqual(TWO_LOOKUP_KINDS);
    const text = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(text).toBe('Looking.Done: 2 lookups.');
  });

  it('lets a reader that disconnects resume from its last id on another connection: no gap, no duplicate', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    bed.server.enqueue(
      { text: 'x'.repeat(60), chunkSize: 1, chunkDelayMs: 15, toolCalls: [{ id: 'c1', name: 'lookup' }] },
      { text: 'y'.repeat(20), chunkSize: 1, chunkDelayMs: 5 },
    );
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });

    const first: RunEvent[] = [];
    for await (const event of runs.events(runId)) {
      first.push(event);
      if (first.filter((e) => e.type === 'text').length === 10) break;
    }
    // The reader left while the run was still streaming.
    expect((await runs.get(runId)).status).toBe('running');

    const elsewhere = open();
    const rest: RunEvent[] = [];
    for await (const event of elsewhere.events(runId, { after: first[first.length - 1].id })) rest.push(event);

    const all: RunEvent[] = [];
    for await (const event of runs.events(runId)) all.push(event);
    expect([...first, ...rest]).toEqual(all);
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all[all.length - 1]).toMatchObject({ type: 'status', status: 'completed' });
    const text = all.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(text).toBe('x'.repeat(60) + 'y'.repeat(20));
  });

  it('retries a 5xx or 429 from the last checkpoint through BullMQ, and fails a run on a 4xx without retrying', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const runs = open({ backoffMs: 20 });
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();

    bed.server.enqueue(
      { status: 500, errorMessage: 'upstream down' },
      { toolCalls: [{ id: 'c1', name: 'lookup' }] },
      { status: 429, errorMessage: 'slow down' },
      { text: 'recovered' },
    );
    const retried = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const done = await runs.wait(retried.runId, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'completed', text: 'recovered' });
    expect(done.state.turn).toBe(2);
    assertValidHistory(done.state.messages);
    expect(done.state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The retried second turn started from the checkpoint: the tool was not run again.
    expect(lookup.calls).toHaveLength(1);
    expect(bed.server.requests).toHaveLength(4);
    expect(bed.server.requests[3].body.messages).toEqual(bed.server.requests[2].body.messages);

    bed.server.enqueue({ status: 400, errorMessage: 'bad request' });
    const refused = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const failed = await runs.wait(refused.runId, { timeoutMs: 20_000 });
    expect(failed).toMatchObject({ status: 'failed', stopReason: 'error', error: { status: 400 } });
    expect(bed.server.requests).toHaveLength(5);
  });

  it('lists the runs its store keeps, and says plainly that a store without list cannot', async () => {
    const runs = open();
    const { runId } = await runs.start({ body: { model: 'm-listed', messages: [user('go')] } });
    expect(await runs.list()).toEqual([
      { runId, status: 'queued', model: 'm-listed', createdAt: expect.any(Number), updatedAt: expect.any(Number) },
    ]);
    class Unlisted extends RedisRunStore {}
    Object.defineProperty(Unlisted.prototype, 'list', { value: undefined });
    const { host, port } = bed.redis;
    const unlisted = open({ store: new Unlisted({ host, port }, { prefix: bed.prefix }) });
    await expect(unlisted.list()).rejects.toThrow('cannot list runs');
  });

  it('sends a new run’s record and its job in one write, the record first; a run id given waits for its record', async () => {
    const runs = open();
    await runs.start({ body: { model: 'm', messages: [user('warm')] } });
    const redis = (runs as unknown as { store: { redis: Redis } }).store.redis;
    const monitor = await redis.monitor();
    const commands: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => commands.push(args));
    const writes = countWrites(redis);

    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const generated = writes();
    await runs.start({ runId: 'given', body: { model: 'm', messages: [user('go')] } });
    monitor.disconnect();
    expect([generated, writes()]).toEqual([1, 3]);

    expect((await runs.get(runId)).status).toBe('queued');
    expect((await runs.get('given')).status).toBe('queued');
    // The scripts each sent (MONITOR also shows the commands they ran), by their first key: the create whole, the
    // job's by its SHA.
    const scripts = (id: string) =>
      commands
        .filter((args) => ['eval', 'evalsha'].includes(args[0].toLowerCase()) && args.some((arg) => arg.includes(id)))
        .map((args) => args[3]);
    for (const id of [runId, 'given']) {
      const [record, job] = scripts(id);
      expect(record).toBe(`${bed.prefix}:{${id}}:run`);
      expect(job).toMatch(new RegExp(`^bull:\\{${bed.queueName}\\}:`));
    }
  });

  it('takes a new run’s job back when its record was not written, and leaves a run it collided with as it was', async () => {
    const runs = open();
    const redis = (runs as unknown as { store: RedisRunStore }).store.redis;
    const queue = new Queue(`{${bed.queueName}}`, { connection: { host: bed.redis.host, port: bed.redis.port } });
    bed.closeAfter(queue);
    const ids = jest.spyOn(crypto, 'randomUUID');
    try {
      // The id's run key holds a string: the create fails there, after its job went out.
      ids.mockReturnValueOnce('00000000-0000-4000-8000-000000000001');
      await redis.set(`${bed.prefix}:{00000000-0000-4000-8000-000000000001}:run`, 'not a hash');
      await expect(runs.start({ body: { model: 'm', messages: [user('go')] } })).rejects.toThrow('WRONGTYPE');
      await redis.del(`${bed.prefix}:{00000000-0000-4000-8000-000000000001}:run`);

      // A run with the id exists already (an id generated twice): it is neither queued again nor changed.
      const existing = await runs.start({
        runId: '00000000-0000-4000-8000-000000000002',
        body: { model: 'first', messages: [user('a')] },
      });
      await queue.remove(`${existing.runId}-0`);
      ids.mockReturnValueOnce(existing.runId as ReturnType<typeof crypto.randomUUID>);
      await expect(runs.start({ body: { model: 'second', messages: [user('b')] } })).rejects.toThrow('exists already');

      await until(async () => (await queue.getJobCounts('wait', 'delayed', 'active')).wait === 0);
      expect(await queue.getJob('00000000-0000-4000-8000-000000000001-0')).toBeUndefined();
      expect(await queue.getJob(`${existing.runId}-0`)).toBeUndefined();
      expect((await runs.list()).map((r) => [r.runId, r.model])).toEqual([[existing.runId, 'first']]);
    } finally {
      ids.mockRestore();
    }
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
