import { RedisRunStore, RunWaitTimeoutError } from '../../src/bullmq';
import type { AgentRuns, RunSetup } from '../../src/bullmq';
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

  describe('a run this process created while listening', () => {
    /** Runs on a store whose reads are counted, and a worker (started by `work`) answering every run with text. */
    function counted(): { runs: AgentRuns; reads: jest.SpyInstance; work: () => Promise<void> } {
      const { host, port } = bed.redis;
      const store = new RedisRunStore({ host, port }, { prefix: bed.prefix });
      const runs = open({ store });
      bed.server.enqueue(...Array.from({ length: 4 }, () => ({ text: 'Done.' })));
      const work = () =>
        runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
      return { runs, reads: jest.spyOn(store, 'read'), work };
    }
    const body = { model: 'm', messages: [user('go')] };

    it('is read once by its wait, when told it settled; one created before the process listened, first too', async () => {
      const { runs, reads, work } = counted();
      const before = await runs.start({ body });
      // This wait starts the listening: its run was created before, so it is read first (and found queued).
      const beforeDone = runs.wait(before.runId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads).toHaveBeenCalledTimes(1);
      const after = await runs.start({ body });
      const afterDone = runs.wait(after.runId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads).toHaveBeenCalledTimes(1);

      await work();
      expect((await Promise.all([beforeDone, afterDone])).map((r) => r.status)).toEqual(['completed', 'completed']);
      expect(reads).toHaveBeenCalledTimes(3);
    });

    it('is read at once by a wait that comes after it settled, not after the recheck', async () => {
      const { runs, work } = counted();
      await work();
      await runs.wait((await runs.start({ body })).runId);
      const { runId } = await runs.start({ body });
      while ((await runs.get(runId)).status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 20));
      const asked = Date.now();
      expect((await runs.wait(runId)).status).toBe('completed');
      // A wait that took the run for one still running would be told nothing, and read only after 5 s.
      expect(Date.now() - asked).toBeLessThan(2000);
    });

    it('is not taken for new when started again after it ended', async () => {
      const { runs, work } = counted();
      await work();
      const { runId } = await runs.start({ body });
      await runs.wait(runId);
      await runs.start({ body, runId });
      const asked = Date.now();
      expect((await runs.wait(runId)).status).toBe('completed');
      expect(Date.now() - asked).toBeLessThan(2000);
    });
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
