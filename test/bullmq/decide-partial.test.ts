import { InvalidDecisionsError } from '../../src/bullmq';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('runs.decide with a decision for some of the pending calls', () => {
  const bed = useQueueTestbed();

  it('merges it into the waiting run, says what is undecided, and resumes once the last call is decided', async () => {
    const runs = bed.open({ secret: 'queue secret' });
    // A second process deciding the other call: the decisions gather in the store, not in either process.
    const elsewhere = bed.open({ secret: 'queue secret' });
    const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
    const refund = fakeTool('refund', () => ({ response: 'refunded' }), { needsApproval: true });
    bed.server.enqueue(
      {
        toolCalls: [
          { id: 'c1', name: 'charge', arguments: { amount: 5 } },
          { id: 'c2', name: 'refund', arguments: { amount: 3 } },
        ],
      },
      { text: 'done' },
    );
    await runs
      .worker({ setup: async () => ({ client: bed.server.client(), tools: [charge, refund] }) })
      .waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('waiting');
    const token = await runs.resumeToken(runId);

    expect(await runs.decide(runId, { c2: { approve: false, reason: 'not today' } }, { token })).toEqual({
      undecided: ['c1'],
    });
    const waiting = await runs.get(runId);
    expect(waiting.status).toBe('waiting');
    expect(waiting.decisions).toEqual({ c2: { approve: false, reason: 'not today' } });
    // The token of the pause still holds: a partial decision does not move the run on.
    expect(await runs.resumeToken(runId)).toBe(token);
    await expect(runs.decide(runId, { c9: { approve: true } }, { token })).rejects.toBeInstanceOf(
      InvalidDecisionsError,
    );

    expect(await elsewhere.decide(runId, { c1: { approve: true } }, { token })).toEqual({ undecided: [] });
    const done = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(done.status).toBe('completed');
    expect(done.decisions).toBeUndefined();
    expect(charge.calls).toHaveLength(1);
    expect(refund.calls).toHaveLength(0);
    const tools = done.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['charged', 'Tool call rejected by the user: not today']);
  });
});
