import { Queue } from 'bullmq';
import { type AgentRuns, RedisRunStore } from '../../src/bullmq';
import type { Claimed, RunEvent, RunSetup, RunsConnection } from '../../src/bullmq';
import { decodeEvent } from '../../src/bullmq/store/event-reader';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

/** A Redis store whose claims answer late, and that counts them. */
class LateClaims extends RedisRunStore {
  claims = 0;
  override async claim(
    runId: string,
    jobSeq: number,
    options: { attempt: number; withJournal: boolean },
  ): Promise<Claimed | undefined> {
    this.claims++;
    const claimed = super.claim(runId, jobSeq, options);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return claimed;
  }
}

describe("a run's first job claims it without a read", () => {
  const bed = useQueueTestbed();

  function open(): { runs: AgentRuns; store: LateClaims; connection: RunsConnection; queueName: string } {
    const connection = { host: bed.redis.host, port: bed.redis.port };
    const store = new LateClaims(connection, { prefix: bed.prefix });
    const runs = bed.open({ store });
    return { runs, store, connection, queueName: bed.queueName };
  }

  /** Every entry of the run's stream, those after its last status event included (a reader stops there). */
  async function eventsOf(store: RedisRunStore, runId: string): Promise<string[]> {
    const entries = await store.redis.xrange(store.keys(runId).events, '-', '+');
    return entries.map(([id, fields]) => decodeEvent(id, fields)).map((e: RunEvent) => describeEvent(e));
  }

  it('runs nothing of a run cancelled while queued: no setup, no model request, no tool', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    bed.server.enqueue(
      { text: 'Looking.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { text: 'Done.' },
    );
    const { runs, store } = open();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    await runs.cancel(runId);
    // The worker starts after the cancel: its subscription never hears it, only the claim can refuse the run.
    let setups = 0;
    const setup = async (): Promise<RunSetup> => {
      setups++;
      return { client: bed.server.client(), tools: [lookup] };
    };
    await runs.worker({ setup }).waitUntilReady();
    await until(() => store.claims === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(setups).toBe(0);
    expect(bed.server.requests).toHaveLength(0);
    expect(lookup.calls).toHaveLength(0);
    expect((await runs.get(runId)).status).toBe('cancelled');
    expect(await eventsOf(store, runId)).toEqual(['status:queued', 'status:cancelled']);
  });

  it('carries a small start in the run’s first job, not a large one (its claim reads it); both run', async () => {
    bed.server.enqueue({ text: 'Small.' }, { text: 'Large.' });
    const { runs, store, connection, queueName } = open();
    const queue = new Queue(`{${queueName}}`, { connection });
    bed.closeAfter(queue);
    const small = await runs.start({ body: { model: 'm', messages: [user('go')] }, meta: { tenant: 'a' } });
    const large = await runs.start({ body: { model: 'm', messages: [user('x'.repeat(70 * 1024))] } });
    const carried = (await queue.getJob(`${small.runId}-0`))?.data as { start?: { body: unknown; meta: unknown } };
    expect(carried.start?.body).toEqual({ model: 'm' });
    expect(carried.start?.meta).toEqual({ tenant: 'a' });
    expect(((await queue.getJob(`${large.runId}-0`))?.data as { start?: unknown }).start).toBeUndefined();

    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [] });
    await runs.worker({ setup }).waitUntilReady();
    expect((await runs.wait(small.runId, { timeoutMs: 20_000 })).text).toBe('Small.');
    expect((await runs.wait(large.runId, { timeoutMs: 20_000 })).text).toBe('Large.');
    expect(store.claims).toBe(2);
  });

  it('does nothing for a repeated first job of a run that has ended: no tool, no event, no write', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    bed.server.enqueue(
      { text: 'Done.' },
      { text: 'Looking.', toolCalls: [{ id: 'c9', name: 'lookup', arguments: {} }] },
    );
    const { runs, store, connection, queueName } = open();
    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [lookup] });
    await runs.worker({ setup }).waitUntilReady();
    const messages = [user('go')];
    const { runId } = await runs.start({ body: { model: 'm', messages } });
    const done = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(done.status).toBe('completed');
    const before = await eventsOf(store, runId);

    // The same job again (its id is free once the first one completed), carrying the run's start.
    const queue = new Queue(`{${queueName}}`, { connection });
    bed.closeAfter(queue);
    const start = { state: { ...done.state, messages, turn: 0 }, body: { model: 'm' }, meta: null };
    await queue.add('turn', { runId, seq: 0, start }, { jobId: `${runId}-0`, removeOnComplete: true });
    await until(async () => (await queue.getJobState(`${runId}-0`)) === 'unknown');

    expect(store.claims).toBe(2);
    expect(lookup.calls).toHaveLength(0);
    const after = await runs.get(runId);
    expect(after.status).toBe('completed');
    expect(after.state).toEqual(done.state);
    expect(await eventsOf(store, runId)).toEqual(before);
  });
});

function describeEvent(event: RunEvent): string {
  return event.type === 'status' ? `status:${event.status}` : event.type;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
