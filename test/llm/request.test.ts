import { StreamIdleTimeoutError } from '../../src/errors';
import { createLLMResponse } from '../../src/llm/request';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { stretchedTimeout } from '../helpers/stretched-timeout';

const messages = [{ role: 'user' as const, content: 'What is the weather in Paris and Rome?' }];
const tools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

describe('createLLMResponse', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('fires onToolCall once per call, then each arguments fragment in order, for a streamed turn with two calls', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', argumentChunks: ['{"ci', 'ty": "Pa', 'ris"}'] },
        { id: 'call_b', name: 'get_weather', argumentChunks: ['{"city"', ': "Rome"}'] },
      ],
    });
    const events: string[] = [];
    const deltas = new Map<string, string>();
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages, tools },
      onStreaming: ({ text }) => events.push(`text:${text}`),
      onToolCall: ({ call }) => events.push(`call:${call.id}:${call.function.name}:${call.function.arguments}`),
      onToolParam: ({ call: tool, argsDelta }) => {
        events.push(`param:${tool.id}:${argsDelta}`);
        deltas.set(tool.id, (deltas.get(tool.id) ?? '') + argsDelta);
      },
    });

    expect(events.filter((e) => !e.startsWith('text:'))).toEqual([
      'call:call_a:get_weather:',
      'param:call_a:{"ci',
      'param:call_a:ty": "Pa',
      'param:call_a:ris"}',
      'call:call_b:get_weather:',
      'param:call_b:{"city"',
      'param:call_b:: "Rome"}',
    ]);
    expect(
      events
        .filter((e) => e.startsWith('text:'))
        .map((e) => e.slice(5))
        .join(''),
    ).toBe('Checking.');
    expect(res.toolCalls.map((c) => [c.id, c.function.arguments])).toEqual([
      ['call_a', '{"city": "Paris"}'],
      ['call_b', '{"city": "Rome"}'],
    ]);
    for (const call of res.toolCalls) expect(deltas.get(call.id)).toBe(call.function.arguments);
    expect(res.finish_reason).toBe('tool_calls');
    expect(res.answerText).toBe('Checking.');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'Checking.', tool_calls: res.toolCalls });
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true }, tools });
  });

  it('keeps calls to tools that were never declared, and turns empty arguments into {}', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'made_up_tool' }] });
    const seen: ChatCompletionMessageToolCall[] = [];
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages, tools },
      onToolCall: ({ call }) => seen.push(call),
    });
    expect(seen.map((c) => c.function.name)).toEqual(['made_up_tool']);
    expect(res.toolCalls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'made_up_tool', arguments: '{}' } },
    ]);
    expect(res.assistantMessage?.content).toBeNull();
  });

  it('streams reasoning_content and reports usage from the provider', async () => {
    server.enqueue({ reasoning: 'Let me think.', text: 'Sunny.', usage: { prompt_tokens: 11, completion_tokens: 7 } });
    const reasoning: string[] = [];
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages },
      onReasoning: ({ text }) => reasoning.push(text),
    });
    expect(reasoning.join('')).toBe('Let me think.');
    expect(res.reasoningText).toBe('Let me think.');
    expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'Sunny.', reasoning_content: 'Let me think.' });
  });

  it('splits an inline <think> block into reasoning, even when the tags are cut across chunks', async () => {
    server.enqueue({ text: '<think>Paris is in France.</think>\n\nIt is sunny.', chunkSize: 3 });
    const answer: string[] = [];
    const reasoning: string[] = [];
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages },
      onStreaming: ({ text }) => answer.push(text),
      onReasoning: ({ text }) => reasoning.push(text),
    });
    expect(reasoning.join('')).toBe('Paris is in France.');
    expect(answer.join('')).toBe('It is sunny.');
    expect(res.answerText).toBe('It is sunny.');
  });

  it('leaves a <think> tag that is not at the start in the answer', async () => {
    server.enqueue({ text: 'Use <think> tags like this.' });
    const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages } });
    expect(res.answerText).toBe('Use <think> tags like this.');
    expect(res.reasoningText).toBe('');
  });

  it('handles a plain JSON response with the same hooks', async () => {
    server.enqueue({
      reasoning: 'hmm',
      text: '<think>ignored?</think>ok',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    const order: string[] = [];
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages, tools, stream: false },
      onReasoning: () => order.push('reasoning'),
      onStreaming: ({ text }) => order.push(`text:${text}`),
      onToolCall: () => order.push('call'),
      onToolParam: ({ argsDelta }) => order.push(`param:${argsDelta}`),
    });
    expect(res.isStreamResponse).toBe(false);
    expect(res.toolCalls[0].function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(res.answerText).toBe('ok');
    expect(res.reasoningText).toBe('hmmignored?');
    expect(order).toEqual(['reasoning', 'reasoning', 'text:ok', 'call', 'param:{"city":"Oslo"}']);
    expect(server.requests[0].body.stream).toBe(false);
  });

  it('accepts non-streamed arguments sent as an object rather than JSON text', async () => {
    server.enqueue((req) => {
      expect(req.body.stream).toBe(false);
      return { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{}' }] };
    });
    const client = server.client({
      // A server that sends `arguments` as an object, as some OpenAI-compatible ones do.
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        const body = (await res.json()) as {
          choices: { message: { tool_calls: { function: { arguments: unknown } }[] } }[];
        };
        body.choices[0].message.tool_calls[0].function.arguments = { city: 'Oslo' };
        return new Response(JSON.stringify(body), {
          status: res.status,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const res = await createLLMResponse({ client, body: { model: 'm', messages, tools, stream: false } });
    expect(res.toolCalls[0].function.arguments).toBe('{"city":"Oslo"}');
  });

  it('estimates usage when the provider reports none', async () => {
    server.enqueue({ text: 'abcdefgh', usage: null });
    const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages } });
    expect(res.usage.outputTokens).toBe(2);
    expect(res.usage.inputTokens).toBeGreaterThan(0);
  });

  it('returns an HTTP error as a value', async () => {
    server.enqueue({ status: 500, errorMessage: 'upstream exploded' });
    const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages } });
    expect(res.finish_reason).toBe('error');
    expect(res.error).toMatchObject({ status: 500 });
    expect(String((res.error as Error).message)).toContain('upstream exploded');
    expect(res.assistantMessage).toBeUndefined();
  });

  it('keeps the text that arrived before a stream was cut, without half-streamed tool calls', async () => {
    server.enqueue({
      text: 'Partial answer',
      chunkSize: 4,
      toolCalls: [{ name: 'get_weather', argumentChunks: ['{"ci', 'ty":"X"}'] }],
      cutAfter: 6,
    });
    const res = await createLLMResponse({ client: server.client(), body: { model: 'm', messages, tools } });
    expect(res.finish_reason).toBe('error');
    expect(res.error).toBeDefined();
    expect(res.answerText).toBe('Partial answer');
    expect(res.assistantMessage).toEqual({ role: 'assistant', content: 'Partial answer' });
  });

  it('stops the stream when isAborted turns true, with finish_reason close', async () => {
    server.enqueue({ text: 'one two three four five six', chunkSize: 4, chunkDelayMs: 5 });
    let chunks = 0;
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages },
      onStreaming: () => chunks++,
      isAborted: () => chunks >= 2,
    });
    expect(res.finish_reason).toBe('close');
    expect(res.error).toBeUndefined();
    expect(res.answerText).toBe('one two ');
  });

  it('fails a stream that goes silent for longer than requestOptions.timeout', async () => {
    const idle = stretchedTimeout(100);
    // The headers arrive at once, then the server pauses between chunks far beyond the test timeout.
    const slow = await startScriptedServer({ turns: [{ text: 'abcdefgh', chunkSize: 2, chunkDelayMs: 600_000 }] });
    try {
      const res = await createLLMResponse({
        client: slow.client(),
        body: { model: 'm', messages },
        // The same timeout also bounds the wait for the headers: stretched on a busy machine, so they always come
        // first and this test sees the silence after them.
        requestOptions: { timeout: idle },
      });
      expect(res.finish_reason).toBe('error');
      expect(res.error).toBeInstanceOf(StreamIdleTimeoutError);
      expect((res.error as Error).message).toBe(`The model stream sent nothing for ${idle} ms`);
    } finally {
      await slow.close();
    }
  });

  it('cancels the request when the abort signal fires', async () => {
    // Far beyond the test timeout: the test only finishes if the abort really cancels the request.
    server.enqueue({ delayMs: 600_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const res = await createLLMResponse({
      client: server.client(),
      body: { model: 'm', messages },
      abortSignal: controller.signal,
    });
    expect(res.finish_reason).toBe('close');
    expect(res.error).toBeUndefined();
  });
});
