import { runAgentLoop } from '../../src';
import { createLLMResponse } from '../../src/llm/request';
import { readResponsesUsage, readUsage } from '../../src/llm/response/usage';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

describe('usage: cached and reasoning tokens', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const scripted = { prompt_tokens: 120, completion_tokens: 40, cached_tokens: 100, reasoning_tokens: 25 };

  describe.each(['chat', 'responses'] as const)('over the %s wire', (wire) => {
    it.each([true, false])('reads both from the provider (stream: %s)', async (stream) => {
      server.enqueue({ text: 'hi', usage: scripted });
      const res = await createLLMResponse({
        client: server.client(),
        wire,
        body: { model: 'm', messages: [user('hello')], stream },
      });
      expect(res.error).toBeUndefined();
      expect(res.usage).toEqual({ inputTokens: 120, outputTokens: 40, cachedTokens: 100, reasoningTokens: 25 });
      expect(server.requests[0].wire).toBe(wire);
    });

    it('puts them on the usage item of each main request', async () => {
      server.enqueue({ text: 'hi', usage: scripted });
      const pushed: unknown[] = [];
      const result = await runAgentLoop({
        client: server.client(),
        wire,
        body: { model: 'm', messages: [user('hello')] },
        tools: [],
        usagePush: (items) => pushed.push(...items),
      });
      expect(result.stopReason).toBe('completed');
      const item = { moduleName: 'agent_call', model: 'm', inputTokens: 120, outputTokens: 40 };
      expect(pushed).toEqual([{ ...item, cachedTokens: 100, reasoningTokens: 25 }]);
    });
  });

  it('reads the Chat Completions details, and leaves out what is missing or not a count', () => {
    const base = { prompt_tokens: 10, completion_tokens: 4 };
    expect(readUsage(base)).toEqual({ inputTokens: 10, outputTokens: 4 });
    expect(
      readUsage({ ...base, prompt_tokens_details: { cached_tokens: 6 }, completion_tokens_details: null }),
    ).toEqual({ inputTokens: 10, outputTokens: 4, cachedTokens: 6 });
    expect(
      readUsage({
        ...base,
        prompt_tokens_details: { cached_tokens: -1 },
        completion_tokens_details: { reasoning_tokens: '3' },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 4 });
    expect(readUsage({ ...base, completion_tokens_details: { reasoning_tokens: 0 } })).toEqual({
      inputTokens: 10,
      outputTokens: 4,
      reasoningTokens: 0,
    });
    expect(readUsage({ prompt_tokens_details: { cached_tokens: 6 } })).toBeUndefined();
  });

  it('reads the Responses details the same way', () => {
    const base = { input_tokens: 10, output_tokens: 4 };
    expect(
      readResponsesUsage({
        ...base,
        input_tokens_details: { cached_tokens: 6 },
        output_tokens_details: { reasoning_tokens: 2.5 },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 4, cachedTokens: 6 });
  });
});
