import OpenAI, { type APIError } from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { collectStream } from './collect-stream';

const USER = [{ role: 'user' as const, content: 'hello world!' }];

describe('startScriptedServer: replies through the real openai SDK', () => {
  let server: ScriptedServer;
  let openai: OpenAI;

  beforeEach(async () => {
    server = await startScriptedServer();
    openai = server.client();
  });
  afterEach(() => server.close());

  const stream = (extra: { include_usage?: boolean } = {}) =>
    openai.chat.completions.create({
      model: 'test-model',
      messages: USER,
      stream: true,
      ...(extra.include_usage ? { stream_options: { include_usage: true } } : {}),
    });

  it('binds 127.0.0.1 on a random port under /v1', () => {
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.baseURL).not.toMatch(/:0\//);
  });

  it('streams text in chunkSize pieces that concatenate to the text, after a role chunk', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    server.enqueue({ text, chunkSize: 5 });

    const got = await collectStream(await stream());

    expect(got.text).toBe(text);
    const contentChunks = got.chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentChunks).toHaveLength(Math.ceil(text.length / 5));
    expect(got.chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(got.chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'test-model')).toBe(true);
    expect(new Set(got.chunks.map((c) => c.id)).size).toBe(1);
    expect(got.finishReason).toBe('stop');
  });

  it('uses the server-wide chunkSize when the reply sets none', async () => {
    await server.close();
    server = await startScriptedServer({ chunkSize: 3, turns: [{ text: 'abcdefgh' }] });

    const got = await collectStream(
      await server.client().chat.completions.create({ model: 'm', messages: USER, stream: true }),
    );

    expect(got.chunks.map((c) => c.choices[0]?.delta.content).filter(Boolean)).toEqual(['abc', 'def', 'gh']);
  });

  it('streams reasoning_content before the content', async () => {
    server.enqueue({ reasoning: 'Let me think about it.', text: 'Answer.', chunkSize: 4 });

    const got = await collectStream(await stream());

    expect(got.reasoning).toBe('Let me think about it.');
    expect(got.text).toBe('Answer.');
    const kinds = got.chunks.slice(1, -1).map((c) => ('reasoning_content' in c.choices[0].delta ? 'r' : 't'));
    expect(kinds.join('')).toMatch(/^r+t+$/);
  });

  it('streams two tool calls with explicit argument fragments, merged by index', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_weather', name: 'get_weather', argumentChunks: ['{"ci', 'ty": "Pa', 'ris"}'] },
        { id: 'call_time', name: 'get_time', argumentChunks: ['{"tz":', '"CET"}'] },
      ],
    });

    const got = await collectStream(await stream());

    expect(got.toolCalls).toEqual([
      { id: 'call_weather', name: 'get_weather', arguments: '{"city": "Paris"}', fragments: 3 },
      { id: 'call_time', name: 'get_time', arguments: '{"tz":"CET"}', fragments: 2 },
    ]);
    expect(got.text).toBe('Checking.');
    expect(got.finishReason).toBe('tool_calls');
  });

  it('numbers default tool-call ids across requests and splits object arguments into about three fragments', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'a', arguments: { city: 'Paris', days: 3 } }, { name: 'b' }] },
      { toolCalls: [{ name: 'c', arguments: '{"x":1}' }] },
    );

    const first = await collectStream(await stream());
    const second = await collectStream(await stream());

    expect(first.toolCalls).toEqual([
      { id: 'call_1', name: 'a', arguments: '{"city":"Paris","days":3}', fragments: 3 },
      { id: 'call_2', name: 'b', arguments: '', fragments: 0 },
    ]);
    expect(second.toolCalls[0]).toMatchObject({ id: 'call_3', name: 'c', arguments: '{"x":1}' });
  });

  it('sends the usage chunk (choices: []) only when the request asks include_usage', async () => {
    const usage = { prompt_tokens: 11, completion_tokens: 7 };
    server.enqueue({ text: 'hi', usage }, { text: 'hi', usage });

    const withUsage = await collectStream(await stream({ include_usage: true }));
    const without = await collectStream(await stream());

    const last = withUsage.chunks[withUsage.chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(without.usage).toBeUndefined();
    expect(without.chunks.some((c) => c.choices.length === 0)).toBe(false);
  });

  it('estimates usage as ceil(chars / 4) of the request messages and of the output by default', async () => {
    server.enqueue({ text: 'abcdefghi' });

    const got = await collectStream(await stream({ include_usage: true }));

    // 'hello world!' is 12 characters, the output 9.
    expect(got.usage).toEqual({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
  });

  it('adds token details to the usage only when the reply names them', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 6, cached_tokens: 4, reasoning_tokens: 2 };
    server.enqueue({ text: 'hi', usage });

    const completion = await openai.chat.completions.create({ model: 'm', messages: USER });

    expect(completion.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 6,
      total_tokens: 16,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
  });

  it('sends no usage at all when the reply says usage: null', async () => {
    server.enqueue({ text: 'a', usage: null }, { text: 'a', usage: null });

    const streamed = await collectStream(await stream({ include_usage: true }));
    const plain = await openai.chat.completions.create({ model: 'm', messages: USER });

    expect(streamed.usage).toBeUndefined();
    expect(plain.usage).toBeUndefined();
  });

  it('answers a non-stream request with a chat.completion carrying tool_calls, reasoning and usage', async () => {
    server.enqueue({
      reasoning: 'Need the weather.',
      toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: { city: 'Oslo' } }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });

    const completion = await openai.chat.completions.create({ model: 'test-model', messages: USER });

    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('test-model');
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      reasoning_content: 'Need the weather.',
      tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
    });
    expect(completion.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
  });

  it('answers plain text non-stream with the scripted finish reason', async () => {
    server.enqueue({ text: 'Cut off', finishReason: 'length' });

    const completion = await openai.chat.completions.create({ model: 'm', messages: USER });

    expect(completion.choices[0].message.content).toBe('Cut off');
    expect(completion.choices[0].message.tool_calls).toBeUndefined();
    expect(completion.choices[0].finish_reason).toBe('length');
  });

  it('reports the server model option instead of the requested model', async () => {
    await server.close();
    server = await startScriptedServer({ model: 'served-model', turns: [{ text: 'x' }] });

    const completion = await server.client().chat.completions.create({ model: 'asked-model', messages: USER });

    expect(completion.model).toBe('served-model');
  });

  it('records each request (path, key, messages, tools) before answering, even when the answer is an error', async () => {
    const tools: ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    server.enqueue({ status: 400, errorMessage: 'bad tools' });

    const call = openai.chat.completions.create({ model: 'm', messages: USER, tools, stream: true });
    await expect(call).rejects.toThrow('bad tools');

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({
      index: 0,
      turnIndex: 0,
      path: '/v1/chat/completions',
      apiKey: 'sk-scripted-default',
    });
    expect(request.headers.authorization).toBe('Bearer sk-scripted-default');
    expect(request.body.messages).toEqual(USER);
    expect(request.body.tools).toEqual(tools);
    expect(request.body.stream).toBe(true);
  });

  it('passes the recorded request to a function turn and serves what it returns', async () => {
    const seen: unknown[] = [];
    server.enqueue(async (request) => {
      seen.push(request);
      const last = request.body.messages[request.body.messages.length - 1];
      return { text: `echo: ${String(last.content)}` };
    });

    const completion = await openai.chat.completions.create({ model: 'm', messages: USER });

    expect(completion.choices[0].message.content).toBe('echo: hello world!');
    expect(seen).toEqual([server.requests[0]]);
    expect(seen[0]).toBe(server.requests[0]);
  });

  it('answers 500 with the thrown message when a function turn throws', async () => {
    server.enqueue(() => {
      throw new Error('assertion inside the turn failed');
    });

    const error = await openai.chat.completions.create({ model: 'm', messages: USER }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as APIError).message).toBe(
      '500 scripted server: request #0: turn function threw: assertion inside the turn failed',
    );
  });

  it('refuses a reply whose argumentChunks contradict its arguments, with a 500 naming the tool', async () => {
    server.enqueue({ toolCalls: [{ name: 'calc', arguments: '{"a":1}', argumentChunks: ['{"a":', '2}'] }] });

    const error = await openai.chat.completions.create({ model: 'm', messages: USER }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toMatch(/argumentChunks of tool call 'calc' join to/);
  });

  it('surfaces scripted HTTP 500 and 429 as APIError with that status and message', async () => {
    server.enqueue({ status: 500, errorMessage: 'upstream exploded' }, { status: 429, errorMessage: 'slow down' });

    const e500 = await openai.chat.completions
      .create({ model: 'm', messages: USER, stream: true })
      .catch((e: unknown) => e);
    const e429 = await openai.chat.completions.create({ model: 'm', messages: USER }).catch((e: unknown) => e);

    expect(e500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e500).toMatchObject({ status: 500, message: '500 upstream exploded', type: 'server_error' });
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429).toMatchObject({ status: 429, message: '429 slow down', code: 'rate_limit_exceeded' });
    expect(server.pending()).toBe(0);
  });

  it('lets a client with retries consume the next turn after a 429', async () => {
    server.enqueue({ status: 429 }, { text: 'second try' });

    const completion = await server.client({ maxRetries: 1 }).chat.completions.create({ model: 'm', messages: USER });

    expect(completion.choices[0].message.content).toBe('second try');
    expect(server.requests.map((r) => r.turnIndex)).toEqual([0, 1]);
  });

  it('keeps the default script queue: enqueue appends, pending counts what is left', async () => {
    await server.close();
    server = await startScriptedServer({ turns: [{ text: 'one' }] });
    server.enqueue({ text: 'two' }, () => ({ text: 'three' }));
    expect(server.pending()).toBe(3);

    const client = server.client();
    const texts: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      texts.push((await client.chat.completions.create({ model: 'm', messages: USER })).choices[0].message.content);
    }

    expect(texts).toEqual(['one', 'two', 'three']);
    expect(server.pending()).toBe(0);
  });

  it('answers an unknown path with 404 and a malformed body with 400, recording neither', async () => {
    const notFound = await fetch(`${server.baseURL}/embeddings`, { method: 'POST', body: '{}' });
    const badJson = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{"model":' });

    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { type: 'not_found_error', code: 'unknown_url' } });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
    expect(server.requests).toHaveLength(0);
  });
});
