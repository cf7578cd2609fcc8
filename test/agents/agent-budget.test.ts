import { defineAgent, runAgentLoop, type AfterToolCallEvent } from '../../src';
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
});
