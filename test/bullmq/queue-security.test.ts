import { Redis } from 'ioredis';
import {
  type AgentRuns,
  InvalidRunIdError,
  ResumeTokenError,
  RunNotFoundError,
  RunStartTooLargeError,
} from '../../src/bullmq';
import type { RunEvent, RunSetup } from '../../src/bullmq';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('AgentRuns under attack, on a real Redis', () => {
  const bed = useQueueTestbed();
  let client: Redis;
  beforeAll(() => {
    // No reconnecting: the suite's Redis may stop before this client is disconnected.
    client = new Redis({ host: bed.redis.host, port: bed.redis.port, retryStrategy: () => null });
  });
  afterAll(() => client.disconnect());
  /** Runs on this test's queue and prefix: a second one is another process sharing them. */
  const open = bed.open;

  const charge = () => fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });

  /** A worker on `runs` and a run that pauses on one approval of `charge` (call `c1`); its answer is not queued yet. */
  async function pausedRun(runs: AgentRuns, tool = charge(), extra: Partial<RunSetup> = {}) {
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge', arguments: { amount: 5 } }] });
    await runs
      .worker({ setup: async () => ({ client: bed.server.client(), tools: [tool], ...extra }) })
      .waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    const waiting = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(waiting.status).toBe('waiting');
    return { runId, tool, waiting };
  }

  async function events(runs: AgentRuns, runId: string): Promise<RunEvent[]> {
    const all: RunEvent[] = [];
    for await (const event of runs.events(runId)) all.push(event);
    return all;
  }

  it('refuses decide from a run id alone when the runs have no secret, unless the app opts out by name', async () => {
    const runs = open();
    const { runId, tool } = await pausedRun(runs);
    const refused = runs.decide(runId, { c1: { approve: true } });
    await expect(refused).rejects.toBeInstanceOf(ResumeTokenError);
    await expect(refused).rejects.toMatchObject({ problem: 'unconfigured' });
    expect((await runs.get(runId)).status).toBe('waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tool.calls).toHaveLength(0);

    const optedOut = open({ allowDecideWithoutToken: true });
    bed.server.enqueue({ text: 'charged 5' });
    await optedOut.decide(runId, { c1: { approve: true } });
    expect(await runs.wait(runId, { timeoutMs: 20_000 })).toMatchObject({ status: 'completed', text: 'charged 5' });
    expect(tool.calls).toHaveLength(1);
  });

  it('never hands the token to a reader: get, wait and events carry none; resumeToken(runId) does', async () => {
    const runs = open({ secret: 'queue secret' });
    const { runId, waiting } = await pausedRun(runs);
    const token = await runs.resumeToken(runId);
    expect(token).toEqual(expect.any(String));
    expect(waiting).not.toHaveProperty('resumeToken');
    expect(await runs.get(runId)).not.toHaveProperty('resumeToken');
    const seen: RunEvent[] = [];
    for await (const event of runs.events(runId)) {
      seen.push(event);
      if (event.type === 'status' && event.status === 'waiting') break;
    }
    expect(JSON.stringify([waiting, await runs.get(runId), seen])).not.toContain(token!);

    await expect(runs.decide(runId, { c1: { approve: true } })).rejects.toMatchObject({ problem: 'missing' });
    bed.server.enqueue({ text: 'charged 5' });
    await runs.decide(runId, { c1: { approve: true } }, { token: await runs.resumeToken(runId) });
    const done = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(done.status).toBe('completed');
    expect(await runs.resumeToken(runId)).toBeUndefined();
    await expect(runs.resumeToken('no-such-run')).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it('masks RunRecord.error and cuts it to 2,000 characters', async () => {
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
    const leak = 'connect postgres://admin:S3cretPassw0rd@db.internal:5432/app failed, password=hunter2hunter2 ';
    bed.server.enqueue({ status: 400, errorMessage: leak + 'x'.repeat(100_000) });
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const failed = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(failed).toMatchObject({ status: 'failed', error: { status: 400 } });
    expect(failed.error!.message.length).toBeLessThanOrEqual(2000);
    expect(failed.error!.message).not.toContain('S3cretPassw0rd');
    expect(failed.error!.message).not.toContain('hunter2hunter2');
    expect(failed.error!.message).toContain('[redacted]');
  });

  it('expires a run left waiting after waitingTtlSeconds; a decided run no longer expires as waiting', async () => {
    const runs = open({ waitingTtlSeconds: 1, allowDecideWithoutToken: true });
    const { runId } = await pausedRun(runs);
    const keys = runs['store'].keys(runId);
    expect(await client.ttl(keys.run)).toBeGreaterThan(0);
    expect(await client.ttl(keys.events)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await expect(runs.get(runId)).rejects.toBeInstanceOf(RunNotFoundError);
    expect(await client.exists(keys.run, keys.events)).toBe(0);

    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge' }] }, { text: 'charged' });
    const { runId: decided } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    expect((await runs.wait(decided, { timeoutMs: 20_000 })).status).toBe('waiting');
    await runs.decide(decided, { c1: { approve: true } });
    expect(await client.ttl(runs['store'].keys(decided).run)).not.toBe(1);
    expect((await runs.wait(decided, { timeoutMs: 20_000 })).status).toBe('completed');
  });

  it('writes streamed text as one event per flush, not one per token', async () => {
    const runs = open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
    const text = 'word '.repeat(600);
    bed.server.enqueue({ text, chunkSize: 1 });
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('completed');
    const all = await events(runs, runId);
    const texts = all.flatMap((e) => (e.type === 'text' ? [e.text] : []));
    expect(texts.join('')).toBe(text);
    // 3,000 deltas streamed; a handful of entries written (one per 25 ms flush at most).
    expect(texts.length).toBeLessThan(50);
  });

  it('trims a run’s event stream to about maxEvents entries', async () => {
    const runs = open({ maxEvents: 20, turnsPerJob: 10 });
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();
    const turn = (t: number) => ({
      toolCalls: Array.from({ length: 40 }, (_, i) => ({ id: `t${t}-${i}`, name: 'lookup' })),
    });
    bed.server.enqueue(turn(0), turn(1), turn(2), turn(3), { text: 'done' });
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    expect((await runs.wait(runId, { timeoutMs: 30_000 })).status).toBe('completed');
    expect(lookup.calls).toHaveLength(160);
    // 320 tool events were written; `MAXLEN ~` drops whole stream nodes (100 entries each), so about 20 remain.
    const length = await client.xlen(runs['store'].keys(runId).events);
    expect(length).toBeLessThan(150);
    const all = await events(runs, runId);
    expect(all.at(-1)).toMatchObject({ type: 'status', status: 'completed' });
  });

  it('caps start bodies and run ids with named errors, and stores nothing for them', async () => {
    const runs = open({ maxStartBytes: 10_000 });
    const big = user('x'.repeat(20_000));
    await expect(runs.start({ runId: 'big', body: { model: 'm', messages: [big] } })).rejects.toBeInstanceOf(
      RunStartTooLargeError,
    );
    await expect(
      runs.start({ runId: 'big-meta', body: { model: 'm', messages: [] }, meta: 'm'.repeat(20_000) }),
    ).rejects.toBeInstanceOf(RunStartTooLargeError);
    expect(await client.exists(runs['store'].keys('big').run, runs['store'].keys('big-meta').run)).toBe(0);

    const defaults = open();
    const huge = user('x'.repeat(5 * 1024 * 1024));
    await expect(defaults.start({ body: { model: 'm', messages: [huge] } })).rejects.toBeInstanceOf(
      RunStartTooLargeError,
    );
    const longId = 'r'.repeat(1024 * 1024);
    const refused = defaults.start({ runId: longId, body: { model: 'm', messages: [user('go')] } });
    await expect(refused).rejects.toBeInstanceOf(InvalidRunIdError);
    expect(((await refused.catch((error: Error) => error)) as Error).message.length).toBeLessThan(300);
    await expect(defaults.get(longId)).rejects.toBeInstanceOf(InvalidRunIdError);
    await expect(defaults.start({ runId: 'a:b', body: { model: 'm', messages: [] } })).rejects.toBeInstanceOf(
      InvalidRunIdError,
    );
    expect(await client.keys(`${bed.prefix}:*`)).toEqual([]);
  });

  it("gives a resumed run the caller its own state names when setup gives none (the queue's states are trusted)", async () => {
    const runs = open({ allowDecideWithoutToken: true });
    const tool = charge();
    let jobs = 0;
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge' }] }, { text: 'charged' });
    const setup = async (): Promise<RunSetup> =>
      jobs++ === 0
        ? { client: bed.server.client(), tools: [tool], caller: { user: 'ada' } }
        : { client: bed.server.client(), tools: [tool] };
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('waiting');
    await runs.decide(runId, { c1: { approve: true } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('completed');
    expect(tool.calls.map((c) => c.caller)).toEqual([{ user: 'ada' }]);
  });
});
