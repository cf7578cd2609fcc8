import { runAgentLoop } from '../../src/run-agent-loop';
import { DEFAULT_MAX_TOOL_CALLS_PER_TURN } from '../../src/constants';
import { createLLMResponse } from '../../src/llm/request';
import { startScriptedServer } from '../../src/testing';
import type { ToolExecuteResult } from '../../src/toolCall/type';
import { fakeTool, user } from '../helpers/tools';
import { onWire } from '../helpers/wire-under-test';

type ToolMessage = { role: 'tool'; tool_call_id: string; content: string };
const toolMessages = (messages: unknown[]) =>
  messages.filter((m) => (m as ToolMessage).role === 'tool') as ToolMessage[];

describe('tool calls per turn', () => {
  it('runs at most the cap and answers every call past it without running it', async () => {
    const calls = Array.from({ length: DEFAULT_MAX_TOOL_CALLS_PER_TURN + 36 }, (_, i) => ({
      id: `c${i}`,
      name: 'charge',
      arguments: { n: i },
    }));
    const server = await startScriptedServer({ turns: [{ toolCalls: calls }, { text: 'done' }] });
    try {
      const charge = fakeTool('charge', () => ({ response: 'charged' }));
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [charge],
      });
      expect(result.stopReason).toBe('completed');
      expect(charge.calls).toHaveLength(DEFAULT_MAX_TOOL_CALLS_PER_TURN);
      const sent = toolMessages(server.requests[1].body.messages);
      expect(sent.map((m) => m.tool_call_id)).toEqual(calls.map((c) => c.id));
      expect(sent.slice(0, DEFAULT_MAX_TOOL_CALLS_PER_TURN).every((m) => m.content === 'charged')).toBe(true);
      expect(sent.at(-1)!.content).toBe(
        `Tool error: charge was not run: this turn made ${calls.length} tool calls and at most ${DEFAULT_MAX_TOOL_CALLS_PER_TURN} are run; call again with fewer`,
      );
    } finally {
      await server.close();
    }
  });

  it('takes its cap from maxToolCallsPerTurn', async () => {
    const calls = ['a', 'b', 'c'].map((id) => ({ id, name: 'charge', arguments: {} }));
    const server = await startScriptedServer({ turns: [{ toolCalls: calls }, { text: 'done' }] });
    try {
      const charge = fakeTool('charge', () => ({ response: 'charged' }));
      await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [charge],
        maxToolCallsPerTurn: 2,
      });
      expect(charge.calls).toHaveLength(2);
      expect(
        toolMessages(server.requests[1].body.messages).map((m) =>
          m.content.startsWith('Tool error: charge was not run'),
        ),
      ).toEqual([false, false, true]);
    } finally {
      await server.close();
    }
  });
});

describe('a tool result never breaks the run', () => {
  it('survives throwing getters, malformed usages and messages, and keeps the history', async () => {
    const hostile = {
      response: 'ok',
      get stop(): boolean {
        throw new Error('stop getter');
      },
      usages: [
        null,
        { moduleName: 7 },
        { moduleName: 'x', inputTokens: '12', outputTokens: -1 },
        { moduleName: 'y', inputTokens: 3 },
      ],
      assistantMessages: [null, 5, { role: 'assistant', content: 'inner' }],
    };
    const throwingResponse = {
      get response(): string {
        throw new Error('response getter');
      },
    };
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            { id: 'h', name: 'hostile', arguments: {} },
            { id: 't', name: 'throwing', arguments: {} },
            { id: 'u', name: 'usagesNotArray', arguments: {} },
          ],
        },
        { text: 'done' },
      ],
    });
    try {
      const usagePush = jest.fn();
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [
          fakeTool('hostile', () => hostile as unknown as ToolExecuteResult),
          fakeTool('throwing', () => throwingResponse as unknown as ToolExecuteResult),
          fakeTool('usagesNotArray', () => ({ response: 'fine', usages: 'lots' }) as unknown as ToolExecuteResult),
        ],
        usagePush,
      });
      expect(result.stopReason).toBe('completed');
      expect(toolMessages(result.completeMessages).map((m) => m.content)).toEqual([
        'ok',
        'Tool error: response getter',
        'fine',
      ]);
      const toolUsages = result.usages.filter((u) => u.moduleName !== 'agent_call');
      expect(toolUsages).toEqual([{ moduleName: 'x' }, { moduleName: 'y', inputTokens: 3 }]);
      expect(result.assistantMessages).toContainEqual({ role: 'assistant', content: 'inner' });
      expect(typeof result.inputTokens).toBe('number');
    } finally {
      await server.close();
    }
  });
});

describe('usage numbers from the endpoint', () => {
  it.each([
    ['a string', '12'],
    ['a negative number', -5],
    ['NaN as null', null],
    ['a fraction', 1.5],
  ])('are accepted only as finite non-negative integers, not %s', async (_label, bad) => {
    const server = await startScriptedServer({
      turns: [{ text: 'hello', usage: { prompt_tokens: bad as unknown as number, completion_tokens: 3 } }],
    });
    try {
      const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages: [user('hi')] } });
      expect(Number.isInteger(res.usage.inputTokens) && res.usage.inputTokens >= 0).toBe(true);
      expect(Number.isInteger(res.usage.outputTokens) && res.usage.outputTokens >= 0).toBe(true);
      expect(res.usage.inputTokens).not.toBe(bad);
    } finally {
      await server.close();
    }
  });

  it('keeps valid numbers as they are', async () => {
    const server = await startScriptedServer({
      turns: [{ text: 'hello', usage: { prompt_tokens: 11, completion_tokens: 3 } }],
    });
    try {
      const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages: [user('hi')] } });
      // The Responses API always reports its cached and reasoning token counts; the chat route here leaves them out.
      const details = onWire({ chat: {}, responses: { cachedTokens: 0, reasoningTokens: 0 } });
      expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 3, ...details });
    } finally {
      await server.close();
    }
  });
});
