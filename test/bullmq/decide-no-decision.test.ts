import { InvalidDecisionsError } from '../../src/bullmq';
import type { Decision } from '../../src';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('runs.decide with no decision', () => {
  const bed = useQueueTestbed();

  it('throws InvalidDecisionsError saying what to pass, and the run keeps waiting', async () => {
    const runs = bed.open({ secret: 'queue secret' });
    const charge = fakeTool('charge', () => ({ response: 'charged' }), { needsApproval: true });
    bed.server.enqueue({ toolCalls: [{ id: 'c1', name: 'charge', arguments: { amount: 5 } }] });
    await runs.worker({ setup: async () => ({ client: bed.server.client(), tools: [charge] }) }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('pay')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('waiting');
    const token = await runs.resumeToken(runId);
    for (const decisions of [{}, undefined as unknown as Record<string, Decision>]) {
      const refused = runs.decide(runId, decisions, { token });
      await expect(refused).rejects.toBeInstanceOf(InvalidDecisionsError);
      await expect(refused).rejects.toThrow(/No decision for run .*pass \{ \[callId\]: \{ approve: true \}/);
    }
    expect((await runs.get(runId)).status).toBe('waiting');
    expect(charge.calls).toHaveLength(0);
  });
});
