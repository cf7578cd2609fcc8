import type { RunEvent } from '../../src/bullmq';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe("a queued run's tool progress, on a real Redis", () => {
  const bed = useQueueTestbed();

  it('publishes tool_progress events between the call and its result, a burst as its latest report', async () => {
    const index = fakeTool('index', async ({ progress }) => {
      // A burst in one tick, then a report after a pause the event buffer flushes in.
      for (let done = 1; done <= 500; done++) progress?.({ progress: done, total: 1_000, message: `file ${done}` });
      await new Promise((resolve) => setTimeout(resolve, 200));
      progress?.({ progress: 1_000, total: 1_000, message: 'x'.repeat(5_000) });
      return { response: 'indexed' };
    });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'index', arguments: {} }] }, { text: 'Done.' });
    const runs = bed.open();
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [index] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('completed');

    const events: RunEvent[] = [];
    for await (const event of runs.events(runId)) events.push(event);
    const types = events.map((event) => event.type).filter((type) => type.startsWith('tool_'));
    expect(types[0]).toBe('tool_call');
    expect(types.at(-1)).toBe('tool_result');
    const progress = events.flatMap((event) => (event.type === 'tool_progress' ? [event] : []));
    // 501 reports: the burst of 500 is one entry (its latest) and the last report another, or, when the machine is
    // slow enough that the pause ends before the buffer's flush, both are one entry: the latest of all.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(2);
    if (progress.length === 2) {
      expect(progress[0]).toEqual(
        expect.objectContaining({ callId: 'c1', name: 'index', progress: 500, total: 1_000, message: 'file 500' }),
      );
    }
    expect(progress.at(-1)).toEqual(
      expect.objectContaining({
        callId: 'c1',
        name: 'index',
        progress: 1_000,
        total: 1_000,
        message: 'x'.repeat(1_000),
      }),
    );
  });
});
