import { budget, research, spentSummary } from '../../samples/budgets/capped-run';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { fakeTool } from '../helpers/tools';

describe('samples/budgets/capped-run', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const search = fakeTool('search', () => ({ response: 'three more leads' }));
  // 10,000 input tokens (8,000 of them cached) and 500 output tokens a request: $0.0017.
  const leads: ScriptedReply = {
    toolCalls: [{ name: 'search', arguments: { q: 'leads' } }],
    usage: { prompt_tokens: 10_000, cached_tokens: 8_000, completion_tokens: 500 },
  };

  it('stops a model that keeps searching at the budget, and goes on under a larger one', async () => {
    server.enqueue(...Array.from({ length: 40 }, () => leads));
    const stopped = await research(server.client(), [search], 'Find every lead');
    expect(stopped.stopReason).toBe('budget');
    // 200,000 tokens are reached on the 20th request, before the 20 tool calls and the 5 cents.
    expect(server.requests).toHaveLength(20);
    expect(search.calls).toHaveLength(19);
    expect(spentSummary(stopped.state)).toBe('19 tool calls, 210000 tokens, $0.0340');

    const resumed = await research(server.client(), [search], '', {
      resumeFrom: JSON.parse(JSON.stringify(stopped.state)),
      budget: { ...budget, totalTokens: 400_000 },
    });
    // Now the 20 tool calls are spent first: the 21st request's call runs, the 22nd's is answered without running.
    expect(resumed.stopReason).toBe('budget');
    expect(search.calls).toHaveLength(20);
    expect(server.requests).toHaveLength(22);
    expect(resumed.completeMessages.at(-1)?.content).toBe(
      "Tool error: search was not run because the run's budget is spent",
    );
    expect(spentSummary(resumed.state)).toBe('20 tool calls, 231000 tokens, $0.0374');
  });
});
