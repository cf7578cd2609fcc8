import { RedisRunStore, RunWaitTimeoutError } from '../../src/bullmq';
import type { AgentRuns, RunSetup } from '../../src/bullmq';
import type { ScriptedTurn } from '../../src/testing';
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
    function counted(replies: ScriptedTurn[] = Array.from({ length: 4 }, () => ({ text: 'Done.' }))): {
      runs: AgentRuns;
      reads: jest.SpyInstance;
      work: () => Promise<void>;
    } {
      const { host, port } = bed.redis;
      const store = new RedisRunStore({ host, port }, { prefix: bed.prefix });
      const runs = open({ store });
      bed.server.enqueue(...replies);
      const work = () =>
        runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
      return { runs, reads: jest.spyOn(store, 'read'), work };
    }
    const body = { model: 'm', messages: [user('go')] };

    it('is handed to its wait as stored by a worker of this process, unread; one created before listening is read first', async () => {
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
      const handed = await Promise.all([beforeDone, afterDone]);
      expect(handed.map((r) => r.status)).toEqual(['completed', 'completed']);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(handed).toStrictEqual([await runs.get(before.runId), await runs.get(after.runId)]);
    });

    it('is handed over exactly as a read gives it back: paused for approval, and failed', async () => {
      const { runs, reads } = counted([
        { toolCalls: [{ id: 'c1', name: 'charge', arguments: { amount: 3 } }] },
        { status: 400, errorMessage: 'Bad request: no such model' },
      ]);
      const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
      // Listening from here on (the wait on no run reads once, and finds none).
      await expect(runs.wait('none')).rejects.toThrow('none');
      reads.mockClear();
      const paused = await runs.start({ body, meta: { tenant: 'a', at: undefined } });
      const failed = await runs.start({ body });
      const waits = [runs.wait(paused.runId), runs.wait(failed.runId)];
      await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [charge] }) }).waitUntilReady();
      const handed = await Promise.all(waits);
      expect(handed.map((r) => r.status)).toEqual(['waiting', 'failed']);
      expect(reads).toHaveBeenCalledTimes(0);
      expect(handed).toStrictEqual([await runs.get(paused.runId), await runs.get(failed.runId)]);
      expect(handed[1].error?.message).toContain('no such model');
    });

    it('is read once by its wait, when told it settled by a worker in another process', async () => {
      const { runs, reads } = counted();
      const elsewhere = open();
      await elsewhere.worker({ setup: async () => ({ client: bed.server.client(), tools: [] }) }).waitUntilReady();
      // The first wait starts the listening (and reads its run first: it was created before).
      await runs.wait((await runs.start({ body })).runId);
      reads.mockClear();
      const { runId } = await runs.start({ body });
      expect((await runs.wait(runId)).status).toBe('completed');
      expect(reads).toHaveBeenCalledTimes(1);
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

  describe('a run cancelled while a job here holds it', () => {
    /**
     * Listening (so the wait is told, and does not find the run cancelled by a read), start a run on a worker with
     * `setup` and `tools`, wait for it once `busy()`, cancel it, and give how long the wait took after the cancel.
     */
    async function waitAfterCancel(setup: () => Promise<RunSetup>, busy: () => boolean): Promise<number> {
      const runs = open();
      await expect(runs.wait('none')).rejects.toThrow('none');
      await runs.worker({ setup }).waitUntilReady();
      const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
      while (!busy()) await new Promise((resolve) => setTimeout(resolve, 10));
      const waited = runs.wait(runId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const cancelledAt = Date.now();
      await runs.cancel(runId);
      expect((await waited).status).toBe('cancelled');
      return Date.now() - cancelledAt;
    }

    it('is told once the job lets the run go', async () => {
      // A tool that ignores the cancel: the loop leaves it, and the job lets the run go.
      const slow = fakeTool(
        'slow',
        () => new Promise((resolve) => setTimeout(() => resolve({ response: 'late' }), 1500)),
      );
      bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'slow', arguments: {} }] }, { text: 'Never.' });
      const setup = async (): Promise<RunSetup> => ({ client: bed.server.client(), tools: [slow] });
      expect(await waitAfterCancel(setup, () => slow.calls.length > 0)).toBeLessThan(1000);
    });

    it('is told without waiting for a job still in its setup', async () => {
      let entered = false;
      const setup = async (): Promise<RunSetup> => {
        entered = true;
        // The job holds the run through its setup, 1.5 s, whatever happens to the run meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return { client: bed.server.client(), tools: [] };
      };
      expect(await waitAfterCancel(setup, () => entered)).toBeLessThan(1000);
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
