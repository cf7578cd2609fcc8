import { defineAgent, runAgentLoop, type AfterToolCallEvent, type RunState } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('agent budgets count upward', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it("checks the root's toolCalls in the child: the refused call is skipped and every run up to the root ends 'budget'", async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'a', name: 'lookup' }] });
    server.enqueue({ toolCalls: [{ id: 'b', name: 'lookup' }] });
    server.enqueue({ text: 'never asked' });
    const ends: AfterToolCallEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [research],
      budget: { toolCalls: 2 },
      onAfterToolCall: (e) => ends.push(e),
    });
    expect(result.stopReason).toBe('budget');
    expect(lookup.calls).toHaveLength(1);
    expect(ends.map((e) => [e.call.id, e.outcome, e.agentPath])).toEqual([
      ['a', 'ok', ['call_1']],
      ['b', 'skipped', ['call_1']],
      ['call_1', 'ok', undefined],
    ]);
    expect(server.requests).toHaveLength(3);
    expect(result.state.spent?.toolCalls).toBe(2);
  });

  it("counts the child's tokens toward the root's budget, which then stops the root before its next request", async () => {
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [] });
    server.enqueue({
      toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 't' } }],
      usage: { prompt_tokens: 10, completion_tokens: 10 },
    });
    server.enqueue({ text: 'child', usage: { prompt_tokens: 500, completion_tokens: 500 } });
    server.enqueue({ text: 'never asked' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [research],
      budget: { totalTokens: 100 },
    });
    expect(result.stopReason).toBe('budget');
    expect(server.requests).toHaveLength(2);
  });
  it("counts a grandchild's tokens in its parent's spent and the root's, and the root's spent sums the tree", async () => {
    const leaf = fakeTool('leaf', () => ({ response: 'ok' }));
    const inner = defineAgent({ name: 'inner', description: 'I', instructions: 'I.', tools: [leaf] });
    const outer = defineAgent({ name: 'outer', description: 'O', instructions: 'O.', tools: [inner] });
    const tokens = (n: number) => ({ prompt_tokens: n, completion_tokens: 2 * n });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'outer', arguments: { task: 't' } }], usage: tokens(1) });
    server.enqueue({ toolCalls: [{ id: 'o1', name: 'inner', arguments: { task: 'u' } }], usage: tokens(10) });
    server.enqueue({ toolCalls: [{ id: 'l1', name: 'leaf' }], usage: tokens(100) });
    server.enqueue({ text: 'inner done', usage: tokens(1000) });
    server.enqueue({ text: 'outer done', usage: tokens(10_000) });
    server.enqueue({ text: 'root done', usage: tokens(100_000) });
    const saved: RunState[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [outer],
      budget: { totalTokens: 1_000_000 },
      onCheckpoint: (state) => {
        saved.push(JSON.parse(JSON.stringify(state)) as RunState);
      },
    });
    expect(result.stopReason).toBe('completed');
    const spentOf = (state: RunState | undefined) => [
      state?.usage.inputTokens,
      state?.spent?.summaryInputTokens,
      state?.spent?.summaryOutputTokens,
    ];
    // Saved after the grandchild's first turn: the parent (no budget of its own) and the root hold its tokens.
    const first = saved[0];
    expect(spentOf(first.children?.call_1.children?.o1)).toEqual([100, undefined, undefined]);
    expect(spentOf(first.children?.call_1)).toEqual([10, 100, 200]);
    expect(spentOf(first)).toEqual([1, 110, 220]);
    // At the end the root's own requests are in usage, every agent's in spent.
    expect(spentOf(result.state)).toEqual([100_001, 11_110, 22_220]);
  });
});
