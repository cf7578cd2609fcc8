import { assertValidHistory } from '../helpers/history';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('tool retries through the queue on a real Redis', () => {
  const bed = useQueueTestbed();

  it('a call that finished after a retry does not run again when BullMQ retries the job', async () => {
    let runs = 0;
    const keys: (string | undefined)[] = [];
    const lookup = fakeTool(
      'lookup',
      ({ idempotencyKey }) => {
        keys.push(idempotencyKey);
        if (++runs === 1) throw new Error('upstream 503');
        return { response: `found on run ${runs}` };
      },
      { idempotent: true, retry: { attempts: 3 } },
    );
    const runsQueue = bed.open({ backoffMs: 20 });
    await runsQueue.worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup] }) }).waitUntilReady();
    bed.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'lookup' }] },
      // The next request fails with a retryable status: BullMQ runs the job again from what the run kept.
      { status: 429, errorMessage: 'slow down' },
      { text: 'done' },
    );
    const started = await runsQueue.start({ body: { model: 'm', messages: [user('go')] } });
    const done = await runsQueue.wait(started.runId, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'completed', text: 'done' });
    expect(runs).toBe(2);
    expect(new Set(keys).size).toBe(1);
    expect(done.state.messages.find((m) => m.role === 'tool')?.content).toBe('found on run 2');
    assertValidHistory(done.state.messages);
  });
});
