import { runAgentLoop } from '../../src/run-agent-loop';
import { APIError } from 'openai';
import type { AfterToolCallEvent } from '../../src/agentCall/type';
import {
  EmptyModelResponseError,
  RunAbortedError,
  RunTimeoutError,
  ToolTimeoutError,
  UnsupportedToolCallError,
} from '../../src/errors';
import type { LLMClient, LLMRequestOptions } from '../../src/llm/client';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { onWire, sentTools, wireUnderTest } from '../helpers/wire-under-test';

describe('runAgentLoop', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const weather = () =>
    fakeTool<{ city: string }>('get_weather', ({ params }) => ({ response: `${params.city}: 21°C` }));

  it('runs tool calls and sends their tool messages in the next request', async () => {
    server.enqueue(
      {
        toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }],
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
      { text: 'It is 21°C in Paris.', usage: { prompt_tokens: 20, completion_tokens: 7 } },
    );
    const tool = weather();
    const pushed: unknown[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'test-model', messages: [user('Weather in Paris?')] },
      tools: [tool],
      usagePush: (u) => pushed.push(...u),
    });

    expect(result.stopReason).toBe('completed');
    expect(result.finish_reason).toBe('stop');
    expect(tool.calls.map((c) => c.params)).toEqual([{ city: 'Paris' }]);
    expect(tool.calls[0].messages).toEqual([user('Weather in Paris?')]);

    const first = server.requests[0].body;
    expect(sentTools(server.requests[0])).toEqual([tool.schema]);
    expect(first.tool_choice).toBe('auto');
    const second = server.requests[1].body.messages;
    expect(second.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Paris: 21°C' },
    ]);
    expect(result.completeMessages).toEqual([...second, { role: 'assistant', content: 'It is 21°C in Paris.' }]);
    expect(result.assistantMessages).toEqual(result.completeMessages.slice(1));
    expect(result.inputTokens).toBe(30);
    expect(result.outputTokens).toBe(12);
    expect(result.requestIds).toHaveLength(2);
    // The Responses API always reports its cached and reasoning token counts; the chat route here leaves them out.
    const details = onWire({ chat: {}, responses: { cachedTokens: 0, reasoningTokens: 0 } });
    expect(pushed).toEqual([
      { moduleName: 'agent_call', model: 'test-model', inputTokens: 10, outputTokens: 5, ...details },
      { moduleName: 'agent_call', model: 'test-model', inputTokens: 20, outputTokens: 7, ...details },
    ]);
    expect(result.usages).toEqual(pushed);
  });

  it('does not send body.tools and never mutates the caller messages', async () => {
    server.enqueue({ text: 'hi' });
    const messages: ChatCompletionMessageParam[] = [user('hello')];
    const body = { model: 'm', messages, tools: [{ type: 'function', function: { name: 'sneaky' } }] } as never;
    await runAgentLoop({ client: server.client(), body, tools: [weather()] });
    expect(messages).toHaveLength(1);
    expect(server.requests[0].body.tools?.map((t) => (t.type === 'function' ? t.function.name : ''))).toEqual([
      'get_weather',
    ]);
  });

  it('sends no tools or tool_choice when there are no tools', async () => {
    server.enqueue({ text: 'hi' });
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('hello')] }, tools: [] });
    expect(server.requests[0].body).not.toHaveProperty('tools');
    expect(server.requests[0].body).not.toHaveProperty('tool_choice');
  });

  it('fires onAfterToolCall on every path with the raw response, and answers every call', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'ok', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'ghost', name: 'teleport', arguments: {} },
          { id: 'bad', name: 'strict_tool', arguments: '{"n":"x"}' },
          { id: 'boom', name: 'explode', arguments: {} },
          { id: 'slow', name: 'sleepy', arguments: {} },
        ],
      },
      { text: 'done' },
    );
    const tools = [
      weather(),
      fakeTool('strict_tool', () => ({ response: 'never' }), {
        parseParams: () => ({ success: false, errorMessage: 'n: must be a number' }),
      }),
      fakeTool('explode', () => {
        throw new Error('kaboom');
      }),
      fakeTool('sleepy', () => new Promise(() => undefined), { timeoutMs: 20 }),
    ];
    const after: AfterToolCallEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools,
      onAfterToolCall: (e) => after.push(e),
    });
    const expected: [string, string][] = [
      ['ok', 'Oslo: 21°C'],
      ['ghost', 'Call tool not found: teleport'],
      ['bad', 'n: must be a number'],
      ['boom', 'Tool error: kaboom'],
      ['slow', 'Tool error: sleepy timed out after 20 ms'],
    ];
    expect(after.map((e) => [e.call.id, e.response])).toEqual(expected);
    expect(after.map((e) => e.outcome)).toEqual(['ok', 'not_found', 'invalid_arguments', 'error', 'timeout']);
    expect(after.map((e) => 'error' in e)).toEqual([false, false, true, true, true]);
    expect(after[2].error).toBe('n: must be a number');
    expect(after[3].error).toEqual(new Error('kaboom'));
    expect(ToolTimeoutError.isInstance(after[4].error)).toBe(true);
    for (const e of after) expect(e.durationMs).toBeGreaterThanOrEqual(0);
    // A timer never fires before its delay (libuv may round by a millisecond): the time spent waiting is counted.
    expect(after[4].durationMs).toBeGreaterThanOrEqual(18);
    const toolMessages = server.requests[1].body.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => [(m as { tool_call_id: string }).tool_call_id, m.content])).toEqual(expected);
    expect(result.stopReason).toBe('completed');
  });

  it('reports calls cut short by the run as aborted or skipped, with the named reason', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'l1', name: 'long', arguments: {} },
        { id: 'l2', name: 'get_weather', arguments: { city: 'X' } },
      ],
    });
    const after: AfterToolCallEvent[] = [];
    let toolSignal: AbortSignal | undefined;
    const long = fakeTool('long', ({ signal }) => {
      toolSignal = signal;
      return new Promise(() => undefined);
    });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [long, weather()],
      // Long enough for the request to finish first on a loaded machine: the timeout must land in the tool.
      timeoutMs: 1000,
      onAfterToolCall: (e) => after.push(e),
    });
    expect(result.stopReason).toBe('timeout');
    expect(after.map((e) => [e.call.id, e.outcome])).toEqual([
      ['l1', 'aborted'],
      ['l2', 'skipped'],
    ]);
    expect(RunTimeoutError.isInstance(after[0].error)).toBe(true);
    expect(after[0].error).toMatchObject({ timeoutMs: 1000 });
    expect(after[1].error).toBe(after[0].error);
    expect(toolSignal?.reason).toBe(after[0].error);
    expect(after[1].durationMs).toBe(0);

    server.enqueue({ toolCalls: [{ id: 'l3', name: 'long', arguments: {} }] });
    let stop = false;
    const stopped: AfterToolCallEvent[] = [];
    const long2 = fakeTool('long', () => {
      setTimeout(() => (stop = true), 10);
      return new Promise(() => undefined);
    });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [long2],
      isAborted: () => stop,
      onAfterToolCall: (e) => stopped.push(e),
    });
    expect(stopped.map((e) => e.outcome)).toEqual(['aborted']);
    expect(RunAbortedError.isInstance(stopped[0].error)).toBe(true);
  });

  describe('result.text', () => {
    it('is the last assistant text of the run, kept across later tool-only turns', async () => {
      server.enqueue(
        { text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
        { text: 'Oslo 21°C, Rome 21°C.' },
      );
      const done = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [weather()],
      });
      expect(done.text).toBe('Oslo 21°C, Rome 21°C.');

      server.enqueue(
        { text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
      );
      const cut = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [weather()],
        maxRunAgentTimes: 2,
      });
      expect(cut.stopReason).toBe('max_turns');
      expect(cut.text).toBe('Let me check.');
    });

    it("is '' when the model wrote nothing in this run, whatever the history holds", async () => {
      server.enqueue({ toolCalls: [{ name: 'finish', arguments: {} }] });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go'), { role: 'assistant', content: 'an older answer' }, user('again')] },
        tools: [fakeTool('finish', () => ({ response: 'ok', stop: true }))],
      });
      expect(result.stopReason).toBe('tool_stop');
      expect(result.text).toBe('');
    });
  });

  it('returns error as an Error, wrapping a value that is not one', async () => {
    const client = server.client();
    // A thenable that fails with a bare string, as a hand-rolled client or proxy might.
    const rejectWithString = { then: (_ok: unknown, fail: (reason: unknown) => void) => fail('upstream said no') };
    client.chat.completions.create = (() => rejectWithString) as never;
    client.responses.create = (() => rejectWithString) as never;
    const result = await runAgentLoop({ client, body: { model: 'm', messages: [user('go')] }, tools: [weather()] });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(Error);
    expect(result.error?.message).toBe('upstream said no');
    expect(result.error?.cause).toBe('upstream said no');

    server.enqueue({ status: 500, errorMessage: 'overloaded' });
    const http = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
    });
    expect(http.error).toBeInstanceOf(APIError);
  });

  it('ends the run after a turn whose tool returned stop', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'a', name: 'finish', arguments: { summary: 'all done' } },
        { id: 'b', name: 'get_weather', arguments: { city: 'X' } },
      ],
    });
    const tools = [fakeTool('finish', () => ({ response: 'finished', stop: true })), weather()];
    const result = await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools });
    expect(result.stopReason).toBe('tool_stop');
    expect(server.requests).toHaveLength(1);
    expect(result.completeMessages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('stops at maxRunAgentTimes, even with the model still calling tools', async () => {
    for (let i = 0; i < 5; i++)
      server.enqueue({ text: `step ${i}`, toolCalls: [{ name: 'get_weather', arguments: { city: 'X' } }] });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      maxRunAgentTimes: 3,
    });
    expect(result.stopReason).toBe('max_turns');
    expect(result.runTimes).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(result.completeMessages.at(-1)?.role).toBe('tool');
  });

  it("forces tool_choice 'none' after the configured run of tool-only turns", async () => {
    for (let i = 0; i < 3; i++) server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'X' } }] });
    server.enqueue({ text: 'final' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      maxConsecutiveToolTurns: 3,
    });
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(result.stopReason).toBe('completed');
  });

  it('answers a hallucinated tool name with a tool message and lets the model recover', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'h1', name: 'search_web', arguments: { q: 'x' } }] },
      { toolCalls: [{ id: 'h2', name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'Rome: 21°C' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
    });
    expect(server.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'h1',
      content: 'Call tool not found: search_web',
    });
    expect(result.stopReason).toBe('completed');
  });

  it('returns an HTTP 500 as error, keeping the messages gathered so far', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { status: 500, errorMessage: 'overloaded' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
    });
    expect(result.stopReason).toBe('error');
    expect(result.finish_reason).toBe('error');
    expect(result.error).toMatchObject({ status: 500 });
    expect(result.completeMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(result.requestIds).toHaveLength(2);
  });

  it('returns a stream cut mid-way as error, keeping the partial answer', async () => {
    // The role chunk and three text chunks; on the Responses route the response, its message item and content part
    // come first.
    server.enqueue({ text: 'I was saying something long', chunkSize: 4, cutAfter: onWire({ chat: 4, responses: 7 }) });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
    });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeDefined();
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'I was saying' });
  });

  it('goes on when a streaming hook throws, reporting it to onHookError, and ignores a throwing onAfterToolCall', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'X' } }] }, { text: 'done' });
    const broken = new Error('UI went away');
    const reported: unknown[] = [];
    const survivedStream = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      onToolCall: () => {
        throw broken;
      },
      onHookError: (e) => reported.push(e),
    });
    expect(survivedStream.stopReason).toBe('completed');
    expect(survivedStream.error).toBeUndefined();
    expect(reported).toEqual([{ hook: 'onToolCall', error: broken }]);

    server.enqueue({ toolCalls: [{ id: 'c2', name: 'get_weather', arguments: { city: 'Y' } }] }, { text: 'done' });
    const survived = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      onAfterToolCall: () => {
        throw new Error('observer bug');
      },
    });
    expect(survived.stopReason).toBe('completed');
    expect(survived.completeMessages.find((m) => m.role === 'tool')).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      content: 'Y: 21°C',
    });
  });

  it('treats an empty response as an error instead of a silent success', async () => {
    server.enqueue({});
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
    });
    expect(result.stopReason).toBe('error');
    expect(EmptyModelResponseError.isInstance(result.error)).toBe(true);
    expect((result.error as Error).message).toBe('The model returned an empty response');
  });

  it('stops mid-stream on abort and says so', async () => {
    server.enqueue({ text: 'a long answer that streams slowly', chunkSize: 2, chunkDelayMs: 10 });
    const controller = new AbortController();
    let chunks = 0;
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      abortSignal: controller.signal,
      onStreaming: () => {
        if (++chunks === 3) controller.abort();
      },
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.finish_reason).toBe('close');
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'a long' });
  });

  it('stops during a long tool when isAborted turns true, and the tool sees its signal abort', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'l1', name: 'long', arguments: {} },
        { id: 'l2', name: 'get_weather', arguments: { city: 'X' } },
      ],
    });
    let stop = false;
    let toolSignal: AbortSignal | undefined;
    const second = weather();
    const long = fakeTool('long', ({ signal }) => {
      toolSignal = signal;
      setTimeout(() => (stop = true), 20);
      return new Promise(() => undefined);
    });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [long, second],
      isAborted: () => stop,
    });
    expect(result.stopReason).toBe('aborted');
    expect(toolSignal?.aborted).toBe(true);
    expect(second.calls).toHaveLength(0);
    expect(result.completeMessages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Tool error: long was aborted',
      'Tool error: get_weather was not run because the run was aborted',
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('runs a turn concurrently with toolConcurrency, keeping tool messages in call order', async () => {
    server.enqueue(
      { toolCalls: [0, 1, 2].map((i) => ({ id: `p${i}`, name: 'wait', arguments: { ms: 40 - i * 15, i } })) },
      { text: 'ok' },
    );
    const finished: number[] = [];
    let running = 0;
    let peak = 0;
    const wait = fakeTool<{ ms: number; i: number }>('wait', async ({ params }) => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, params.ms));
      running--;
      finished.push(params.i);
      return { response: `done ${params.i}` };
    });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [wait],
      toolConcurrency: 3,
    });
    expect(peak).toBe(3);
    expect(finished).toEqual([2, 1, 0]);
    expect(server.requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'done 0',
      'done 1',
      'done 2',
    ]);
  });

  it('stops the run when timeoutMs passes', async () => {
    server.enqueue({ toolCalls: [{ name: 'long', arguments: {} }] });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [fakeTool('long', () => new Promise(() => undefined))],
      // Long enough for the request to finish first on a loaded machine: the timeout must land in the tool.
      timeoutMs: 1000,
    });
    expect(result.stopReason).toBe('timeout');
    expect(result.completeMessages.at(-1)).toMatchObject({ role: 'tool', content: 'Tool error: long was aborted' });
  });

  it('sends a plain JSON request when body.stream is false', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Lima' } }] }, { text: 'Lima: 21°C' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')], stream: false },
      tools: [weather()],
    });
    expect(server.requests.map((r) => r.body.stream)).toEqual([false, false]);
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'Lima: 21°C' });
  });

  it('gives a call that reuses an earlier id one final id, the same in every hook and message', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'x', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ id: 'x', name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'done' },
    );
    const seen: string[][] = [[], [], []];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [weather()],
      onToolCall: ({ call }) => seen[0].push(call.id),
      onToolParam: ({ call }) => void (seen[1].includes(call.id) || seen[1].push(call.id)),
      onAfterToolCall: ({ call }) => seen[2].push(call.id),
    });
    const assistantIds = result.completeMessages.flatMap((m) =>
      m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : [],
    );
    const toolIds = result.completeMessages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(assistantIds[0]).toBe('x');
    expect(assistantIds[1]).toMatch(/^[a-zA-Z0-9]{9}$/);
    for (const ids of [...seen, toolIds]) expect(ids).toEqual(assistantIds);
  });

  it('runs a non-streamed call that has a function but no type', async () => {
    server.enqueue(
      (req) => {
        expect(req.body.stream).toBe(false);
        return { toolCalls: [{ id: 'n1', name: 'get_weather', arguments: { city: 'Lima' } }] };
      },
      { text: 'Lima: 21°C' },
    );
    const client = server.client();
    // The scripted server always writes `type: 'function'`; remove it on the wire, as some providers do.
    const create = client.chat.completions.create.bind(client.chat.completions);
    client.chat.completions.create = (async (...args: Parameters<typeof create>) => {
      const completion = (await create(...args)) as { choices: { message: { tool_calls?: { type?: string }[] } }[] };
      for (const call of completion.choices[0]?.message.tool_calls ?? []) delete call.type;
      return completion;
    }) as never;
    const tool = weather();
    const result = await runAgentLoop({
      client,
      body: { model: 'm', messages: [user('go')], stream: false },
      tools: [tool],
    });
    expect(tool.calls.map((c) => c.params)).toEqual([{ city: 'Lima' }]);
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('Lima: 21°C');
  });

  it('names dropped calls of a type it cannot run instead of calling the response empty', async () => {
    // Only chat has such calls: every Responses output item is run (function and custom calls) or kept.
    if (wireUnderTest() === 'responses') return;
    server.enqueue({ toolCalls: [{ id: 'c9', name: 'get_weather', arguments: {} }] });
    const client = server.client();
    const create = client.chat.completions.create.bind(client.chat.completions);
    client.chat.completions.create = (async (...args: Parameters<typeof create>) => {
      const completion = (await create(...args)) as { choices: { message: { tool_calls?: { type?: string }[] } }[] };
      for (const call of completion.choices[0]?.message.tool_calls ?? []) call.type = 'retrieval';
      return completion;
    }) as never;
    const result = await runAgentLoop({
      client,
      body: { model: 'm', messages: [user('go')], stream: false },
      tools: [weather()],
    });
    expect(result.stopReason).toBe('error');
    expect(UnsupportedToolCallError.isInstance(result.error)).toBe(true);
    expect(EmptyModelResponseError.isInstance(result.error)).toBe(false);
    expect(result.error?.message).toMatch(/c9 of type "retrieval".*Only "function" and "custom" tool calls are run/);
    expect(result.completeMessages).toEqual([user('go')]);
  });

  it("sends an empty tool response as 'none', while onAfterToolCall sees the tool's own ''", async () => {
    server.enqueue({ toolCalls: [{ id: 'e1', name: 'quiet', arguments: {} }] }, { text: 'ok' });
    const responses: string[] = [];
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [fakeTool('quiet', () => ({ response: '' }))],
      onAfterToolCall: ({ response }) => responses.push(response),
    });
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'e1', content: 'none' });
    expect(responses).toEqual(['']);
  });

  describe('what the SDK is given to abort a request with', () => {
    /** The real client, recording the options of every `chat.completions.create`. */
    const recording = (real: LLMClient) => {
      const signals: (AbortSignal | undefined)[] = [];
      const client: LLMClient = {
        chat: {
          completions: {
            create: ((body: never, options?: LLMRequestOptions) => {
              signals.push(options?.signal);
              return real.chat.completions.create(body, options);
            }) as LLMClient['chat']['completions']['create'],
          },
        },
      };
      return { client, signals };
    };
    const lookup = () => fakeTool('lookup', ({ signal }) => ({ response: signal.aborted ? 'aborted' : 'found' }));

    it('no signal in a run that nothing can abort, and each tool call still gets a live one of its own', async () => {
      server.enqueue(
        {
          toolCalls: [
            { id: 'c1', name: 'lookup' },
            { id: 'c2', name: 'lookup' },
          ],
        },
        { text: 'done' },
      );
      const { client, signals } = recording(server.client());
      const tool = lookup();
      const body = { model: 'm', messages: [user('go')] };
      const result = await runAgentLoop({ client, body, tools: [tool], streamParser: 'lean' });
      expect(result.stopReason).toBe('completed');
      expect(signals).toEqual([undefined, undefined]);
      // One signal per call: a listener the tool leaves on it (the openai SDK leaves one) dies with the call.
      expect(tool.calls[0].signal).toBeInstanceOf(AbortSignal);
      expect(tool.calls[1].signal).toBeInstanceOf(AbortSignal);
      expect(tool.calls[0].signal).not.toBe(tool.calls[1].signal);
      expect(server.requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'found' });
    });

    it("a fresh signal per request on the SDK's own parser, which stops a stream only through it", async () => {
      server.enqueue({ text: 'done' });
      const { client, signals } = recording(server.client());
      const body = { model: 'm', messages: [user('go')] };
      expect((await runAgentLoop({ client, body, tools: [], streamParser: 'sdk' })).stopReason).toBe('completed');
      expect(signals).toHaveLength(1);
      expect(signals[0]).toBeInstanceOf(AbortSignal);
    });

    it.each([
      ['abortSignal', { abortSignal: new AbortController().signal }],
      ['timeoutMs', { timeoutMs: 60_000 }],
      ['isAborted', { isAborted: () => false }],
    ])('a signal of its own for each request when the run has %s', async (_name, source) => {
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup' }] }, { text: 'done' });
      const { client, signals } = recording(server.client());
      const result = await runAgentLoop({
        client,
        body: { model: 'm', messages: [user('go')] },
        tools: [lookup()],
        ...source,
      });
      expect(result.stopReason).toBe('completed');
      expect(signals).toHaveLength(2);
      expect(signals[0]).toBeInstanceOf(AbortSignal);
      expect(signals[1]).toBeInstanceOf(AbortSignal);
      expect(signals[0]).not.toBe(signals[1]);
      expect(signals).not.toContain((source as { abortSignal?: AbortSignal }).abortSignal);
    });
  });
});
