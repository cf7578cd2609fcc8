import OpenAI, { APIError } from 'openai';
import { ResponsesWireRequiredError } from '../../src/errors/responses-wire-required.error';
import { UnsupportedWireFieldError } from '../../src/errors/unsupported-wire-field.error';
import type { LLMClient } from '../../src/llm/client';
import { createLLMResponse, type LLMRequestBody } from '../../src/llm/request';
import type { ChatCompletionMessageParam, ReasoningItem } from '../../src/llm/type';
import { chooseWire } from '../../src/llm/wires/wire';
import { responseJson, responseStream, startBodyServer, type ServedBody } from '../helpers/responses-server';
import { user } from '../helpers/tools';

const reasoning = (id: string): ReasoningItem => ({
  type: 'reasoning',
  id,
  summary: [{ type: 'summary_text', text: `why ${id}` }],
  encrypted_content: `enc-${id}`,
});

/** The body one request sent over `wire`. */
async function sentBody(body: Partial<LLMRequestBody>, wire: 'chat' | 'responses' = 'responses') {
  const answer: ServedBody =
    wire === 'responses'
      ? responseStream([{ type: 'message', text: ['ok'] }])
      : {
          body: `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        };
  const server = await startBodyServer([answer]);
  try {
    const res = await createLLMResponse({
      client: server.client(),
      wire,
      body: { model: 'gpt-test', messages: [user('hi')], ...body },
    });
    return { res, request: server.requests[0] };
  } finally {
    await server.close();
  }
}

describe('Responses wire: the request', () => {
  it('maps the chat body: tokens, reasoning effort, json_schema format, tool choice, tools with explicit strict', async () => {
    const { request, res } = await sentBody({
      max_completion_tokens: 300,
      reasoning_effort: 'high',
      temperature: 0.2,
      top_p: 0.9,
      parallel_tool_calls: false,
      metadata: { run: '1' },
      service_tier: 'flex',
      user: 'u-1',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true, description: 'the answer' },
      },
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      tools: [
        { type: 'function', function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } } },
        { type: 'function', function: { name: 'strict_one', parameters: { type: 'object' }, strict: true } },
        { type: 'function', function: { name: 'no_params' } },
      ],
    });
    expect(res.error).toBeUndefined();
    expect(request.path).toBe('/v1/responses');
    expect(request.body).toEqual({
      model: 'gpt-test',
      input: [{ role: 'user', content: 'hi' }],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 300,
      reasoning: { effort: 'high' },
      temperature: 0.2,
      top_p: 0.9,
      parallel_tool_calls: false,
      metadata: { run: '1' },
      service_tier: 'flex',
      user: 'u-1',
      text: {
        format: {
          type: 'json_schema',
          name: 'answer',
          schema: { type: 'object' },
          strict: true,
          description: 'the answer',
        },
      },
      tool_choice: { type: 'function', name: 'lookup' },
      tools: [
        { type: 'function', name: 'lookup', description: 'Looks up', parameters: { type: 'object' }, strict: false },
        { type: 'function', name: 'strict_one', parameters: { type: 'object' }, strict: true },
        { type: 'function', name: 'no_params', parameters: { type: 'object', properties: {} }, strict: false },
      ],
    });
  });

  it('maps max_tokens, json_object and string tool choices, and sends no stream_options', async () => {
    const { request } = await sentBody({
      max_tokens: 50,
      response_format: { type: 'json_object' },
      tool_choice: 'none',
    });
    expect(request.body).toMatchObject({
      max_output_tokens: 50,
      text: { format: { type: 'json_object' } },
      tool_choice: 'none',
    });
    expect(request.body).not.toHaveProperty('stream_options');
    expect(request.body).not.toHaveProperty('max_tokens');
  });

  it('refuses chat fields with no Responses meaning before any request, naming each one', async () => {
    const server = await startBodyServer([]);
    try {
      const res = await createLLMResponse({
        client: server.client(),
        wire: 'responses',
        body: {
          model: 'gpt-test',
          messages: [user('hi')],
          n: 2,
          logit_bias: { '42': 1 },
          stop: ['END'],
          logprobs: true,
          top_logprobs: 3,
        },
      });
      expect(server.requests).toHaveLength(0);
      expect(res.finish_reason).toBe('error');
      expect(res.error).toBeInstanceOf(UnsupportedWireFieldError);
      const error = res.error as UnsupportedWireFieldError;
      expect(error.fields).toEqual(['n', 'logit_bias', 'stop', 'logprobs', 'top_logprobs']);
      for (const field of error.fields) expect(error.message).toContain(`"${field}"`);
    } finally {
      await server.close();
    }
  });

  it('lets the values that ask for nothing through (n: 1, logprobs: false)', async () => {
    const { res } = await sentBody({ n: 1, logprobs: false });
    expect(res.error).toBeUndefined();
  });

  it('translates the history: roles kept, reasoning items then text then function calls, tool outputs', async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'sys' },
      { role: 'developer', content: 'dev' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:x' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Looking.',
        reasoning_items: [reasoning('rs_1'), reasoning('rs_2')],
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'b', arguments: '{"x":1}' } },
        ],
      } as ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: 'call_1', content: 'A' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'B' }] },
      {
        role: 'assistant',
        content: null,
        // The same item kept twice goes out once.
        reasoning_items: [reasoning('rs_3'), reasoning('rs_1')],
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'a', arguments: '{}' } }],
      } as ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: 'call_3', content: 'A2' },
    ];
    const { request } = await sentBody({ messages });
    expect(request.body.input).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'developer', content: 'dev' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:x', detail: 'auto' },
        ],
      },
      reasoning('rs_1'),
      reasoning('rs_2'),
      { role: 'assistant', content: 'Looking.' },
      { type: 'function_call', call_id: 'call_1', name: 'a', arguments: '{}' },
      { type: 'function_call', call_id: 'call_2', name: 'b', arguments: '{"x":1}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
      { type: 'function_call_output', call_id: 'call_2', output: 'B' },
      reasoning('rs_3'),
      { type: 'function_call', call_id: 'call_3', name: 'a', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_3', output: 'A2' },
    ]);
  });
});

describe('chat wire beside the Responses wire', () => {
  it('never sends reasoning_items, and leaves a history without them uncopied', async () => {
    const assistant = {
      role: 'assistant',
      content: 'x',
      reasoning_items: [reasoning('rs_1')],
    } as ChatCompletionMessageParam;
    const { request } = await sentBody({ messages: [user('hi'), assistant, user('again')] }, 'chat');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body.messages).toEqual([user('hi'), { role: 'assistant', content: 'x' }, user('again')]);
    expect(JSON.stringify(request.body)).not.toContain('reasoning_items');
    // The kept history is not changed by the strip.
    expect(assistant).toHaveProperty('reasoning_items');
  });

  it('turns a 400 pointing to /v1/responses into ResponsesWireRequiredError, the APIError as cause, no retry', async () => {
    const message =
      "Function tools with reasoning_effort are not supported for gpt-5.6-luna in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.";
    const server = await startBodyServer([
      {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message, type: 'invalid_request_error' } }),
      },
    ]);
    try {
      const res = await createLLMResponse({
        client: server.client(),
        wire: 'chat',
        body: { model: 'm', messages: [user('hi')] },
      });
      expect(server.requests).toHaveLength(1);
      expect(res.error).toBeInstanceOf(ResponsesWireRequiredError);
      const error = res.error as ResponsesWireRequiredError;
      expect(error.message).toContain("wire: 'responses'");
      expect(error.cause).toBeInstanceOf(APIError);
      expect(error.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('leaves any other 400 as the APIError it is', async () => {
    const server = await startBodyServer([
      { status: 400, contentType: 'application/json', body: '{"error":{"message":"bad temperature"}}' },
    ]);
    try {
      const res = await createLLMResponse({
        client: server.client(),
        wire: 'chat',
        body: { model: 'm', messages: [user('hi')] },
      });
      expect(res.error).toBeInstanceOf(APIError);
    } finally {
      await server.close();
    }
  });
});

describe('choosing the wire', () => {
  it("'auto' picks responses for OpenAI's own API only", () => {
    const openai = new OpenAI({ apiKey: 'k' });
    expect(chooseWire(undefined, openai)).toBe('responses');
    expect(chooseWire('auto', new OpenAI({ apiKey: 'k', baseURL: 'https://api.openai.com/v1/' }))).toBe('responses');
    expect(chooseWire('auto', new OpenAI({ apiKey: 'k', baseURL: 'http://localhost:11434/v1' }))).toBe('chat');
    expect(chooseWire('auto', new OpenAI({ apiKey: 'k', baseURL: 'https://api.openai.com.evil.test/v1' }))).toBe(
      'chat',
    );
    expect(chooseWire('chat', openai)).toBe('chat');
    expect(chooseWire('responses', new OpenAI({ apiKey: 'k', baseURL: 'http://localhost/v1' }))).toBe('responses');
  });

  it("'auto' goes over /v1/responses for a client whose base URL is OpenAI's, through the client's own fetch", async () => {
    const server = await startBodyServer([responseStream([{ type: 'message', text: ['hi'] }])]);
    try {
      const client = new OpenAI({
        apiKey: 'k',
        maxRetries: 0,
        fetch: (input, init) => fetch(String(input).replace('https://api.openai.com/v1', server.baseURL), init),
      });
      const res = await createLLMResponse({ client, body: { model: 'gpt-test', messages: [user('hi')] } });
      expect(res.answerText).toBe('hi');
      expect(server.requests[0].path).toBe('/v1/responses');
    } finally {
      await server.close();
    }
  });

  it('keeps a responses.create replaced on the client instance (the size caps do not copy it away)', async () => {
    const server = await startBodyServer([responseJson([{ type: 'message', text: ['patched'] }])]);
    try {
      const client = server.client();
      const original = client.responses.create.bind(client.responses);
      let calls = 0;
      client.responses.create = ((body: never, options: never) => (calls++, original(body, options))) as never;
      const res = await createLLMResponse({
        client,
        wire: 'responses',
        body: { model: 'gpt-test', messages: [user('hi')], stream: false },
      });
      expect(res.answerText).toBe('patched');
      expect(calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("returns a clear error for wire: 'responses' on a client that has only chat", async () => {
    let calls = 0;
    const chatOnly = { chat: { completions: { create: () => (calls++, Promise.reject(new Error('no'))) } } };
    const res = await createLLMResponse({
      client: chatOnly as unknown as LLMClient,
      wire: 'responses',
      body: { model: 'm', messages: [user('hi')] },
    });
    expect(calls).toBe(0);
    expect(res.finish_reason).toBe('error');
    expect(String(res.error)).toContain('responses.create');
  });
});
