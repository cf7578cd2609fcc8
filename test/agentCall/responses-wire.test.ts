import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import { UnsupportedWireFieldError } from '../../src/errors/unsupported-wire-field.error';
import type { ChatCompletionAssistantMessageParam } from '../../src/llm/type';
import { responseJson, responseStream, startBodyServer, usage, type ServedBody } from '../helpers/responses-server';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = (state: RunState): RunState => JSON.parse(JSON.stringify(state)) as RunState;

const chatAnswer = (text: string): ServedBody => ({
  body:
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] })}\n\n` +
    'data: [DONE]\n\n',
});

const lookup = () => fakeTool('lookup', ({ params }) => ({ response: `found ${JSON.stringify(params)}` }));

const reasoningItem = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'Need to look it up' }],
  encrypted_content: 'enc-1',
};

const toolTurn = responseStream(
  [
    { type: 'reasoning', id: 'rs_1', summary: ['Need to ', 'look it up'], encrypted_content: 'enc-1' },
    { type: 'function_call', call_id: 'call_1', name: 'lookup', args: ['{"q":', '"paris"}'] },
  ],
  { id: 'resp_a', usage: usage(20, 8, 0, 5) },
);

describe("runAgentLoop on wire 'responses'", () => {
  it('runs a tool and answers, sending the reasoning item back in place, with the same hooks and results', async () => {
    const server = await startBodyServer([
      toolTurn,
      responseStream([{ type: 'message', text: ['Paris ', 'is sunny.'] }], { id: 'resp_b', usage: usage(40, 6, 16) }),
    ]);
    const calls: string[] = [];
    const tool = lookup();
    try {
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-test', messages: [{ role: 'system', content: 'Be brief.' }, user('Weather in Paris?')] },
        tools: [tool],
        onToolCall: ({ call }) => calls.push(call.id),
      });
      expect(result.error).toBeUndefined();
      expect(result.stopReason).toBe('completed');
      expect(result.text).toBe('Paris is sunny.');
      expect(result.requestIds).toEqual(['resp_a', 'resp_b']);
      expect(calls).toEqual(['call_1']);
      expect(tool.calls[0].params).toEqual({ q: 'paris' });
      expect(result.inputTokens).toBe(60);
      expect(result.outputTokens).toBe(14);
      expect(result.usages[0]).toMatchObject({
        moduleName: 'agent_call',
        inputTokens: 20,
        outputTokens: 8,
        reasoningTokens: 5,
      });

      expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
      const first = server.requests[0].body;
      expect(first.tools).toEqual([
        {
          type: 'function',
          name: 'lookup',
          description: 'lookup tool',
          parameters: tool.schema.function.parameters,
          strict: false,
        },
      ]);
      expect(first.tool_choice).toBe('auto');
      expect(server.requests[1].body.input).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        reasoningItem,
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":"paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'found {"q":"paris"}' },
      ]);

      // The history is chat-shaped: one assistant message with the tool call and its reasoning items.
      expect(result.completeMessages[2]).toEqual({
        role: 'assistant',
        content: null,
        reasoning_items: [reasoningItem],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"paris"}' } }],
      });
    } finally {
      await server.close();
    }
  });

  it('keeps reasoning items through a JSON round trip of the state and sends them on a resume; a chat resume drops them', async () => {
    const server = await startBodyServer([
      toolTurn,
      responseStream([{ type: 'message', text: ['done'] }]),
      chatAnswer('done on chat'),
    ]);
    try {
      const first = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-test', messages: [user('hi')] },
        tools: [lookup()],
        maxRunAgentTimes: 1,
      });
      expect(first.stopReason).toBe('max_turns');
      const saved = roundTrip(first.state);
      const assistant = saved.messages.find((m) => m.role === 'assistant') as ChatCompletionAssistantMessageParam;
      expect(assistant.reasoning_items).toEqual([reasoningItem]);

      const onResponses = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-test', messages: [] },
        tools: [lookup()],
        resumeFrom: saved,
        maxRunAgentTimes: 5,
      });
      expect(onResponses.stopReason).toBe('completed');
      expect(server.requests[1].body.input).toContainEqual(reasoningItem);

      const onChat = await runAgentLoop({
        client: server.client(),
        wire: 'chat',
        body: { model: 'gpt-test', messages: [] },
        tools: [lookup()],
        resumeFrom: roundTrip(first.state),
        maxRunAgentTimes: 5,
      });
      expect(onChat.stopReason).toBe('completed');
      expect(onChat.text).toBe('done on chat');
      const chatRequest = server.requests[2];
      expect(chatRequest.path).toBe('/v1/chat/completions');
      expect(JSON.stringify(chatRequest.body)).not.toContain('reasoning_items');
      expect(JSON.stringify(chatRequest.body)).not.toContain('enc-1');
      expect(chatRequest.body.messages).toContainEqual({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"paris"}' } }],
      });
    } finally {
      await server.close();
    }
  });

  it('sends a non-streamed request for stream: false', async () => {
    const server = await startBodyServer([responseJson([{ type: 'message', text: ['whole'] }])]);
    try {
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-test', messages: [user('hi')], stream: false },
        tools: [],
      });
      expect(result.stopReason).toBe('completed');
      expect(result.text).toBe('whole');
      expect(server.requests[0].body.stream).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('ends with the refused-field error before any request', async () => {
    const server = await startBodyServer([]);
    try {
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-test', messages: [user('hi')], stop: ['x'], seed: 1 },
        tools: [lookup()],
      });
      expect(result.stopReason).toBe('error');
      expect(result.error).toBeInstanceOf(UnsupportedWireFieldError);
      expect(result.error?.message).toContain('"stop"');
      expect(result.error?.message).toContain('"seed"');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('sends compression summaries over the run wire', async () => {
    const server = await startBodyServer([
      responseJson([{ type: 'message', text: ['short summary'] }]),
      responseStream([{ type: 'message', text: ['answer'] }]),
    ]);
    try {
      const long = 'word '.repeat(4000);
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: {
          model: 'gpt-test',
          messages: [
            user(long),
            { role: 'assistant', content: long },
            user(long),
            { role: 'assistant', content: 'ok' },
            user('now?'),
          ],
        },
        tools: [],
        compression: { maxContext: 8000 },
      });
      expect(result.stopReason).toBe('completed');
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
      expect(server.requests[0].body.stream).toBe(false);
    } finally {
      await server.close();
    }
  });
});
