import { RunWaitTimeoutError } from '../../src/bullmq';
import type { RunSetup } from '../../src/bullmq';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('wait is told when a run waits or ends', () => {
  const bed = useQueueTestbed();
  /** A fresh queue and key prefix per test, so no test sees what another left. */
  const open = bed.open;

  it('wakes every waiter of a run, on another AgentRuns too, as the run waits, ends or is cancelled', async () => {
    const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge', arguments: {} }] }, { text: 'Charged.' });
    const runs = open();
    const reader = open();
    const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [charge] });
    // No worker yet: the waits below start on a queued run, and must be told, not find it settled.
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const started = Date.now();
    const waits = [runs.wait(runId), runs.wait(runId), reader.wait(runId)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    await runs.worker({ setup }).waitUntilReady();
    const waiting = await Promise.all(waits);
    // Told at once: well before a waiter reads its run again on its own (every 5 s).
    expect(Date.now() - started).toBeLessThan(3000);
    expect(waiting.map((r) => r.status)).toEqual(['waiting', 'waiting', 'waiting']);

    // A queue no worker takes from: only its cancel settles this run.
    const held = open({ queueName: `${bed.queueName}-held` });
    const unsettled = await held.start({ body: { model: 'm', messages: [user('hold')] } });
    const cancelledAt = Date.now();
    const cancelled = held.wait(unsettled.runId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await reader.cancel(unsettled.runId);
    expect((await cancelled).status).toBe('cancelled');
    expect(Date.now() - cancelledAt).toBeLessThan(3000);
  });

  it('refuses a wait after close, opening no connection', async () => {
    const runs = open();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    await runs.close();
    await expect(runs.wait(runId, { timeoutMs: 300 })).rejects.toThrow('The runs are closed');
  });

  it('times out after timeoutMs on a run that does not settle', async () => {
    const runs = open();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const started = Date.now();
    await expect(runs.wait(runId, { timeoutMs: 300 })).rejects.toBeInstanceOf(RunWaitTimeoutError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
