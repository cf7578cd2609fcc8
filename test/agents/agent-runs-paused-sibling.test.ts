import { defineAgent } from '../../src';
import type { RecordedRequest } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

type Message = { role: string; content?: unknown };

describe('AgentRuns saves an agent that paused beside one under way', () => {
  const bed = useQueueTestbed();

  it("stores the turn of the agent under way with its paused sibling listed by path, then waits on the sibling's call", async () => {
    const runs = bed.open({ secret: 'queue secret' });
    let entered!: () => void;
    const inSecondLookup = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const lookup = fakeTool('lookup', async ({ call }) => {
      if (call.id === 'l2') {
        entered();
        await released;
      }
      return { response: `found ${call.id}` };
    });
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay] });
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    const reply = (request: RecordedRequest) => {
      const messages = request.body.messages as Message[];
      const who = messages[0].role === 'system' ? String(messages[0].content) : 'root';
      const turn = messages.filter((m) => m.role === 'assistant').length;
      if (who === 'Pay.') return turn ? { text: 'cashier done' } : { toolCalls: [{ id: 'p1', name: 'pay' }] };
      if (who === 'R.')
        return turn < 2 ? { toolCalls: [{ id: `l${turn + 1}`, name: 'lookup' }] } : { text: 'research done' };
      if (turn) return { text: 'root done' };
      return {
        toolCalls: [
          { id: 'call_c', name: 'cashier', arguments: { task: 'pay' } },
          { id: 'call_r', name: 'research', arguments: { task: 'look' } },
        ],
      };
    };
    bed.server.enqueue(...Array.from({ length: 12 }, () => reply));
    await runs
      .worker({ setup: async () => ({ client: bed.server.client(), tools: [cashier, research] }) })
      .waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });

    // Research's first turn was saved while the cashier waited: both agents in children, the cashier's call listed.
    await inSecondLookup;
    try {
      // The write goes out beside the next request: read until it is there (a store without it never gets there).
      let stored = await runs.get(runId);
      for (let i = 0; i < 100 && !stored.state.children; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stored = await runs.get(runId);
      }
      expect(stored.status).toBe('running');
      expect(Object.keys(stored.state.children ?? {}).sort()).toEqual(['call_c', 'call_r']);
      expect(stored.state.pending.map((entry) => [entry.agentPath, entry.call.id])).toEqual([[['call_c'], 'p1']]);
    } finally {
      release();
    }

    const waiting = await runs.wait(runId, { timeoutMs: 60_000 });
    expect(waiting.status).toBe('waiting');
    expect(waiting.state.pending.map((entry) => [entry.agentPath, entry.call.id])).toEqual([[['call_c'], 'p1']]);
    const token = await runs.resumeToken(runId);
    await runs.decide(runId, { 'call_c/p1': { approve: true } }, { token });
    const done = await runs.wait(runId, { timeoutMs: 60_000 });
    expect([done.status, done.text]).toEqual(['completed', 'root done']);
    assertValidHistory(done.state.messages, runId);
    expect(pay.calls).toHaveLength(1);
    expect(lookup.calls).toHaveLength(2);
  });
});
