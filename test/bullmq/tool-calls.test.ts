import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { bullQueueName } from '../../src/bullmq/store/keys';
import { toolCallJobId } from '../../src/bullmq/worker/tool-call-processor';
import type { ToolExecuteContext } from '../../src';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool } from '../helpers/tools';
import { deferred } from '../helpers/deferred';

describe('runs.callTool: a durable single tool call on the run queue, on a real Redis', () => {
  const bed = useQueueTestbed();
  let redis: Redis;
  beforeEach(() => (redis = bed.closeAfter(Object.assign(new Redis(bed.redis), { close: async () => undefined }))));
  afterEach(() => redis.disconnect());

  const key = (callId: string) => `${bed.prefix}:{${callId}}:tool-call`;

  it("runs the named tool on a worker, with the call id as its idempotency key and its progress as the call's status", async () => {
    const setups: { runId: string; meta?: unknown }[] = [];
    const render = fakeTool('render', async (ctx: ToolExecuteContext) => {
      for (let page = 1; page <= 200; page++) ctx.progress?.({ progress: page, message: `page ${page}` });
      ctx.progress?.({ progress: 201, message: 'x'.repeat(2_000) });
      return {
        response: `rendered ${String((ctx.params as { month: string }).month)}`,
        content: [
          { type: 'text', text: 'report' },
          { type: 'resource_link', uri: 'file:///r.pdf', name: 'r.pdf' },
        ],
        structuredContent: { pages: 201 },
      };
    });
    const runs = bed.open();
    await runs
      .worker({
        setup: async (call) => {
          setups.push(call);
          return { client: bed.server.client(), tools: [render] };
        },
      })
      .waitUntilReady();
    const { callId } = await runs.callTool({
      name: 'render',
      arguments: { month: '2026-11' },
      meta: { tenant: 't1' },
      ttlMs: 120_000,
    });
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    const call = await runs.waitToolCall(callId, { timeoutMs: 20_000 });
    expect(call).toEqual({
      callId,
      name: 'render',
      status: 'completed',
      statusMessage: 'x'.repeat(500),
      result: {
        response: 'rendered 2026-11',
        outcome: 'ok',
        content: [
          { type: 'text', text: 'report' },
          { type: 'resource_link', uri: 'file:///r.pdf', name: 'r.pdf' },
        ],
        structuredContent: { pages: 201 },
      },
      meta: { tenant: 't1' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastUpdatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      ttlMs: 120_000,
    });
    expect(await runs.getToolCall(callId)).toEqual(call);
    expect(render.calls.map((ctx) => [ctx.idempotencyKey, ctx.call.id])).toEqual([[callId, callId]]);
    expect(setups).toEqual([{ runId: callId, meta: { tenant: 't1' } }]);
    // One key, its call id as its hash tag (one Redis Cluster slot), expiring with the call.
    const ttl = await redis.pttl(key(callId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it("cancelToolCall aborts the tool's signal where it runs, and the call stays cancelled when the tool returns", async () => {
    const entered = deferred();
    const aborted = deferred<unknown>();
    const stuck = fakeTool('stuck', async (ctx) => {
      entered.resolve();
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted.resolve(ctx.signal.reason);
      return { response: 'returned after the cancel' };
    });
    const runs = bed.open();
    const worker = runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [stuck] }) });
    await worker.waitUntilReady();
    // The cancel comes from another process's runs.
    const other = bed.open();
    const { callId } = await other.callTool({ name: 'stuck' });
    await entered.promise;
    expect(await other.cancelToolCall(callId)).toMatchObject({ status: 'cancelled' });
    expect(String(await aborted.promise)).toMatch(/cancelled/);
    expect(await runs.waitToolCall(callId)).toMatchObject({ status: 'cancelled' });
    // Closing waits for the job in hand: the tool's return was stored, or refused, by now.
    await worker.close();
    const after = await runs.getToolCall(callId);
    expect(after).toMatchObject({ status: 'cancelled' });
    expect(after?.result).toBeUndefined();
  });

  it('a call whose outcome is stored never runs again, though its job comes again', async () => {
    const once = fakeTool('once', async () => ({ response: 'done' }));
    const runs = bed.open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [once] }) }).waitUntilReady();
    const { callId } = await runs.callTool({ name: 'once' });
    expect((await runs.waitToolCall(callId))?.status).toBe('completed');

    // The same call's job again (as a stalled job handed over after the outcome was stored would be).
    const queue = bed.closeAfter(new Queue(bullQueueName(bed.queueName), { connection: bed.redis }));
    const events = bed.closeAfter(new QueueEvents(bullQueueName(bed.queueName), { connection: bed.redis }));
    await events.waitUntilReady();
    const again = await queue.add(
      'tool-call',
      { callId, name: 'once', args: {} },
      { jobId: `${toolCallJobId(callId)}-again` },
    );
    await again.waitUntilFinished(events);
    expect(once.calls).toHaveLength(1);
    expect(await runs.getToolCall(callId)).toMatchObject({ status: 'completed', result: { response: 'done' } });
  });

  it('a call cancelled before a worker took it never runs; one whose setup keeps failing is failed, its error masked', async () => {
    const never = fakeTool('never', async () => ({ response: 'ran' }));
    const runs = bed.open({ attempts: 1 });
    const { callId: cancelled } = await runs.callTool({ name: 'never' });
    await runs.cancelToolCall(cancelled);
    const { callId: broken } = await runs.callTool({ name: 'never', meta: { broken: true } });
    await runs
      .worker({
        setup: async ({ meta }) => {
          if (meta) throw new Error('no tools for you: password=hunter2hunter2');
          return { client: bed.server.client(), tools: [never] };
        },
      })
      .waitUntilReady();
    const failed = await runs.waitToolCall(broken, { timeoutMs: 20_000 });
    expect(failed).toMatchObject({ status: 'failed', error: { name: 'Error' } });
    expect(failed?.error?.message).toContain('no tools for you');
    expect(failed?.error?.message).not.toContain('hunter2hunter2');
    expect(await runs.getToolCall(cancelled)).toMatchObject({ status: 'cancelled' });
    expect(never.calls).toHaveLength(0);
  });

  it('a tool that throws completes with the text a model would read, one over 1 MiB or needing approval as an error', async () => {
    const failing = fakeTool('failing', async () => {
      throw new Error('disk full');
    });
    const huge = fakeTool('huge', async () => ({ response: 'x'.repeat(2 * 1024 * 1024) }));
    const approved = fakeTool('guarded', async () => ({ response: 'ran unapproved' }), { needsApproval: true });
    const runs = bed.open();
    await runs
      .worker({ setup: async () => ({ client: bed.server.client(), tools: [failing, huge, approved] }) })
      .waitUntilReady();
    const thrown = await runs.waitToolCall((await runs.callTool({ name: 'failing' })).callId);
    expect(thrown).toMatchObject({
      status: 'completed',
      result: { outcome: 'error', response: expect.stringContaining('disk full') },
    });
    const big = await runs.waitToolCall((await runs.callTool({ name: 'huge' })).callId);
    expect(big?.result).toEqual({
      outcome: 'error',
      response: expect.stringMatching(
        /^Tool error: the result is \d+ bytes, over the 1048576 a queued tool call keeps$/,
      ),
    });
    const missing = await runs.waitToolCall((await runs.callTool({ name: 'nowhere' })).callId);
    expect(missing?.result?.outcome).toBe('not_found');
    const guarded = await runs.waitToolCall((await runs.callTool({ name: 'guarded' })).callId);
    expect(guarded?.result).toEqual({
      outcome: 'rejected',
      response: 'Tool call rejected: guarded needs approval, which a queued tool call does not ask for',
    });
    expect(approved.calls).toHaveLength(0);
  });

  it('waitToolCall gives the call as it is when its time is up, and rejects when its signal aborts', async () => {
    const gate = deferred();
    const entered = deferred();
    const slow = fakeTool('slow', async () => {
      entered.resolve();
      await gate.promise;
      return { response: 'late' };
    });
    const runs = bed.open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [slow] }) }).waitUntilReady();
    const { callId } = await runs.callTool({ name: 'slow' });
    await entered.promise;
    expect(await runs.waitToolCall(callId, { timeoutMs: 1 })).toMatchObject({ status: 'working' });
    const controller = new AbortController();
    const waiting = runs.waitToolCall(callId, { signal: controller.signal });
    controller.abort(new Error('the client went away'));
    await expect(waiting).rejects.toThrow('the client went away');
    gate.resolve();
    expect(await runs.waitToolCall(callId)).toMatchObject({ status: 'completed', result: { response: 'late' } });
  });

  it('refuses bad input with a clear error, and knows no call by an id it never made', async () => {
    const runs = bed.open({ maxStartBytes: 1_000 });
    await expect(runs.callTool({ name: '' })).rejects.toThrow(TypeError);
    await expect(runs.callTool({ name: 'x'.repeat(257) })).rejects.toThrow(/1 to 256 characters/);
    await expect(runs.callTool({ name: 't', arguments: [] as never })).rejects.toThrow('arguments are an object');
    await expect(runs.callTool({ name: 't', ttlMs: 0 })).rejects.toThrow(RangeError);
    await expect(runs.callTool({ name: 't', arguments: { text: 'x'.repeat(2_000) } })).rejects.toThrow(
      /at most 1000 bytes as JSON; these are 2\d{3}/,
    );
    await expect(runs.getToolCall(42 as never)).rejects.toThrow(TypeError);
    expect(await runs.getToolCall('not-a-call')).toBeUndefined();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await runs.getToolCall(unknown)).toBeUndefined();
    expect(await runs.waitToolCall(unknown)).toBeUndefined();
    expect(await runs.cancelToolCall(unknown)).toBeUndefined();
    expect(await redis.exists(key(unknown))).toBe(0);
  });
});
