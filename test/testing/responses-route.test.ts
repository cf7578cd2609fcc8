import OpenAI from 'openai';
import type { ResponseFunctionToolCall, ResponseReasoningItem } from 'openai/resources/responses/responses';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { collectResponseStream } from './collect-response-stream';

const INPUT = [{ role: 'user' as const, content: 'hello world!' }];

describe('startScriptedServer: POST /v1/responses through the real openai SDK', () => {
  let server: ScriptedServer;
  let openai: OpenAI;

  beforeEach(async () => {
    server = await startScriptedServer();
    openai = server.client();
  });
  afterEach(() => server.close());

  const stream = (extra: Partial<OpenAI.Responses.ResponseCreateParamsStreaming> = {}) =>
    openai.responses.create({ model: 'test-model', input: INPUT, stream: true, ...extra });

  it('streams text as output_text deltas of chunkSize inside one message item, numbered from response.created', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    server.enqueue({ text, chunkSize: 5 });

    const got = await collectResponseStream(await stream());

    expect(got.text).toBe(text);
    const deltas = got.events.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas).toHaveLength(Math.ceil(text.length / 5));
    expect(got.events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...deltas.map(() => 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(got.events.map((e) => e.sequence_number)).toEqual(got.events.map((_e, i) => i));
    expect(got.events.find((e) => e.type === 'response.output_text.done')).toMatchObject({
      text,
      item_id: 'msg_scripted_1_0',
    });
    expect(got.final).toMatchObject({
      id: 'resp_scripted_1',
      object: 'response',
      status: 'completed',
      model: 'test-model',
    });
    expect(got.final?.output).toEqual([
      {
        id: 'msg_scripted_1_0',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
      },
    ]);
  });

  it('writes `event:` names beside the JSON and ends without [DONE]', async () => {
    server.enqueue({ text: 'hi' });

    const response = await fetch(`${server.baseURL}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'x', stream: true }),
    });
    const raw = await response.text();

    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = raw.split('\n\n').filter(Boolean);
    for (const event of events) {
      const [name, data] = event.split('\n');
      expect(name).toBe(`event: ${(JSON.parse(data.slice('data: '.length)) as { type: string }).type}`);
    }
    expect(events.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(raw).not.toContain('[DONE]');
  });

  it('streams reasoning as a reasoning item with summary deltas and an opaque, deterministic encrypted_content', async () => {
    server.enqueue({ reasoning: 'Let me think about it.', text: 'Answer.', chunkSize: 4 });
    // Another server serving the same script, not streamed: the same item, byte for byte.
    const again = await startScriptedServer({ turns: [{ reasoning: 'Let me think about it.', text: 'Answer.' }] });

    try {
      const got = await collectResponseStream(await stream());
      const other = await again.client().responses.create({ model: 'm', input: INPUT });

      expect(got.reasoning).toBe('Let me think about it.');
      expect(got.text).toBe('Answer.');
      const reasoning = got.final?.output[0] as ResponseReasoningItem;
      expect(reasoning).toEqual({
        id: 'rs_scripted_1_0',
        type: 'reasoning',
        encrypted_content: expect.stringMatching(/^scripted-enc:/),
        summary: [{ type: 'summary_text', text: 'Let me think about it.' }],
      });
      expect(other.output[0]).toEqual(reasoning);
      const kinds = got.events.map((e) => e.type).filter((t) => t.endsWith('.delta'));
      expect(kinds.join(' ')).toMatch(/^(response\.reasoning_summary_text\.delta )+(response\.output_text\.delta ?)+$/);
      const added = got.events.find((e) => e.type === 'response.output_item.added');
      expect(added).toMatchObject({ output_index: 0, item: { type: 'reasoning', summary: [] } });
      expect(got.events.find((e) => e.type === 'response.reasoning_summary_text.done')).toMatchObject({
        text: 'Let me think about it.',
        summary_index: 0,
      });
    } finally {
      await again.close();
    }
  });

  it('streams each tool call as a function_call item: fc_ id, the scripted call_id, argument fragments verbatim', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_weather', name: 'get_weather', argumentChunks: ['{"ci', 'ty": "Pa', 'ris"}'] },
        { id: 'call_time', name: 'get_time', argumentChunks: ['{"tz":', '"CET"}'] },
      ],
    });

    const got = await collectResponseStream(await stream());

    expect(got.calls).toEqual([
      {
        id: 'fc_scripted_1_1',
        call_id: 'call_weather',
        name: 'get_weather',
        arguments: '{"city": "Paris"}',
        fragments: 3,
      },
      { id: 'fc_scripted_1_2', call_id: 'call_time', name: 'get_time', arguments: '{"tz":"CET"}', fragments: 2 },
    ]);
    expect(got.events.filter((e) => e.type === 'response.function_call_arguments.done')).toEqual([
      expect.objectContaining({ item_id: 'fc_scripted_1_1', name: 'get_weather', arguments: '{"city": "Paris"}' }),
      expect.objectContaining({ item_id: 'fc_scripted_1_2', name: 'get_time', arguments: '{"tz":"CET"}' }),
    ]);
    expect(got.final?.output.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call']);
    expect(got.final?.output[1]).toEqual({
      id: 'fc_scripted_1_1',
      type: 'function_call',
      status: 'completed',
      arguments: '{"city": "Paris"}',
      call_id: 'call_weather',
      name: 'get_weather',
    });
  });

  it('numbers default call ids with the chat route, so ids never collide across wires', async () => {
    server.enqueue({ toolCalls: [{ name: 'a', arguments: { city: 'Paris' } }] }, { toolCalls: [{ name: 'b' }] });

    const chat = await openai.chat.completions.create({ model: 'm', messages: INPUT });
    const responses = await openai.responses.create({ model: 'm', input: INPUT });

    expect(chat.choices[0].message.tool_calls?.[0].id).toBe('call_1');
    expect(responses.output).toEqual([
      {
        id: 'fc_scripted_1_0',
        type: 'function_call',
        status: 'completed',
        arguments: '',
        call_id: 'call_2',
        name: 'b',
      },
    ]);
  });

  it('reports scripted usage on response.completed: input/output tokens, cached and reasoning tokens as parts', async () => {
    server.enqueue({
      text: 'hi',
      usage: { prompt_tokens: 11, completion_tokens: 7, cached_tokens: 4, reasoning_tokens: 5 },
    });

    const got = await collectResponseStream(await stream());

    expect(got.final?.usage).toEqual({
      input_tokens: 11,
      input_tokens_details: { cache_write_tokens: 0, cached_tokens: 4 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 5 },
      total_tokens: 18,
    });
    expect(got.events[0]).toMatchObject({ type: 'response.created', response: { usage: null, output: [] } });
  });

  it('estimates usage from the translated messages by default, and sends usage: null when the reply says so', async () => {
    server.enqueue({ text: 'abcdefghi' }, { text: 'a', usage: null });

    const estimated = await openai.responses.create({ model: 'm', input: INPUT });
    const none = await openai.responses.create({ model: 'm', input: INPUT });

    // 'hello world!' is 12 characters, the output 9: the same estimate as the chat route.
    expect(estimated.usage).toMatchObject({ input_tokens: 3, output_tokens: 3, total_tokens: 6 });
    expect(estimated.usage?.input_tokens_details.cached_tokens).toBe(0);
    expect(estimated.usage?.output_tokens_details.reasoning_tokens).toBe(0);
    expect(none.usage).toBeNull();
  });

  it.each([
    { finishReason: 'length' as const, reason: 'max_output_tokens' },
    { finishReason: 'content_filter' as const, reason: 'content_filter' },
  ])(
    'finishReason $finishReason: an incomplete response ($reason), streamed and not',
    async ({ finishReason, reason }) => {
      server.enqueue({ text: 'Cut off', finishReason }, { text: 'Cut off', finishReason });

      const got = await collectResponseStream(await stream());
      const plain = await openai.responses.create({ model: 'm', input: INPUT });

      expect(got.events.at(-1)?.type).toBe('response.incomplete');
      for (const response of [got.final, plain]) {
        expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason } });
        expect(response?.output).toEqual([expect.objectContaining({ type: 'message', status: 'incomplete' })]);
      }
      expect(plain.output_text).toBe('Cut off');
    },
  );

  it('answers a non-stream request with a Response: reasoning, message and function_call items, usage', async () => {
    server.enqueue({
      reasoning: 'Need the weather.',
      text: 'Looking.',
      toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: { city: 'Oslo' } }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });

    const response = await openai.responses.create({ model: 'test-model', input: INPUT });

    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'test-model', error: null });
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(response.output[2] as ResponseFunctionToolCall).toMatchObject({
      call_id: 'call_x',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(response.output_text).toBe('Looking.'); // the SDK's own sum of the message text
    expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 2, total_tokens: 7 });
  });

  it('echoes the request settings as OpenAI does: store, instructions, tools, tool_choice, max_output_tokens', async () => {
    const tools = [
      { type: 'function' as const, name: 'f', description: 'd', parameters: { type: 'object' }, strict: false },
    ];
    server.enqueue({ text: 'ok' });

    const response = await openai.responses.create({
      model: 'm',
      input: INPUT,
      instructions: 'Be brief.',
      tools,
      tool_choice: 'required',
      max_output_tokens: 50,
      store: false,
      include: ['reasoning.encrypted_content'],
    });

    expect(response).toMatchObject({
      instructions: 'Be brief.',
      tools,
      tool_choice: 'required',
      max_output_tokens: 50,
      store: false,
    });
  });

  it('reports the server model option instead of the requested model', async () => {
    await server.close();
    server = await startScriptedServer({ model: 'served-model', turns: [{ text: 'x' }] });

    const response = await server.client().responses.create({ model: 'asked-model', input: INPUT });

    expect(response.model).toBe('served-model');
  });

  it('surfaces scripted HTTP errors as APIError with that status and message, streamed or not', async () => {
    server.enqueue({ status: 500, errorMessage: 'upstream exploded' }, { status: 429, errorMessage: 'slow down' });

    const e500 = await stream().catch((e: unknown) => e);
    const e429 = await openai.responses.create({ model: 'm', input: INPUT }).catch((e: unknown) => e);

    expect(e500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e500).toMatchObject({ status: 500, message: '500 upstream exploded', type: 'server_error' });
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429).toMatchObject({ status: 429, message: '429 slow down', code: 'rate_limit_exceeded' });
  });

  it('passes a function turn the recorded request: wire responses, the raw body, the body in chat shape', async () => {
    server.enqueue((request) => {
      const last = request.body.messages.at(-1);
      return { text: `echo: ${String(last?.content)} via ${request.wire}` };
    });

    const response = await openai.responses.create({ model: 'm', input: INPUT });

    expect(response.output_text).toBe('echo: hello world! via responses');
    expect(server.requests[0]).toMatchObject({
      wire: 'responses',
      path: '/v1/responses',
      rawBody: { model: 'm', input: INPUT },
      body: { model: 'm', messages: INPUT },
    });
  });

  it('records chat requests with wire chat and rawBody the very object of body', async () => {
    server.enqueue({ text: 'x' });

    await openai.chat.completions.create({ model: 'm', messages: INPUT });

    expect(server.requests[0].wire).toBe('chat');
    expect(server.requests[0].rawBody).toBe(server.requests[0].body);
  });

  it('answers an unknown path with a 404 naming both routes', async () => {
    const response = await fetch(`${server.baseURL}/responses/abc`, { method: 'POST', body: '{}' });
    const get = await fetch(`${server.baseURL}/responses`);

    expect(response.status).toBe(404);
    expect(get.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'scripted server: no route for POST /v1/responses/abc; only POST /v1/chat/completions and POST /v1/responses',
    );
    expect(server.requests).toHaveLength(0);
  });
});
