import OpenAI, { APIConnectionError, APIError } from 'openai';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { expectNoUnhandledRejections } from '../helpers/host-process';
import { fetchWithRetryAfterMs, unusedPort } from '../helpers/network';
import { stretchedTimeout } from '../helpers/stretched-timeout';
import { fakeTool, user } from '../helpers/tools';
import { onWire } from '../helpers/wire-under-test';

describe('network faults: the loop returns what it gathered, as a value, and leaks nothing', () => {
  // No promise the loop or the SDK dropped may reject unobserved, whatever the fault.
  expectNoUnhandledRejections();
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const body = { model: 'm', messages: [user('go')] };
  const weather = () =>
    fakeTool<{ city: string }>('get_weather', ({ params }) => ({ response: `${params.city}: 21°C` }));
  /** A client that retries like production, but waits 1 ms between attempts instead of 0.5 s → 8 s. */
  const retryingClient = (maxRetries: number) => server.client({ maxRetries, fetch: fetchWithRetryAfterMs(1) });
  const roles = (messages: ChatCompletionMessageParam[]) => messages.map((m) => m.role);

  it('rides out HTTP 429s through the SDK retries and completes', async () => {
    server.enqueue(
      { status: 429, errorMessage: 'slow down' },
      { status: 429, errorMessage: 'slow down' },
      { text: 'finally' },
    );
    const result = await runAgentLoop({ client: retryingClient(2), body, tools: [weather()] });
    expect(result.stopReason).toBe('completed');
    expect(server.requests).toHaveLength(3);
    expect(result.runTimes).toBe(1);
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'finally' });
    assertValidRequests(server.requests);
  });

  it.each([429, 500, 503])(
    'returns HTTP %i as an error value once the retries are spent, keeping the earlier turns',
    async (status) => {
      server.enqueue({ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
      for (let i = 0; i < 3; i++) server.enqueue({ status, errorMessage: `scripted ${status}` });
      const result = await runAgentLoop({ client: retryingClient(2), body, tools: [weather()] });

      expect(result.stopReason).toBe('error');
      expect(result.finish_reason).toBe('error');
      expect(result.error).toBeInstanceOf(APIError);
      expect(result.error).toMatchObject({ status });
      // One request for the tool turn, then the first attempt and two retries of the failing one.
      expect(server.requests).toHaveLength(4);
      expect(server.pending()).toBe(0);
      expect(roles(result.completeMessages)).toEqual(['user', 'assistant', 'tool']);
      expect(result.completeMessages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'Oslo: 21°C' });
      assertValidRequests(server.requests);
      assertValidHistory(result.completeMessages);
    },
  );

  it('drops tool calls whose stream was cut mid-arguments, runs none of them, and keeps the text', async () => {
    // Events: role, 2 text chunks, call 1 header + 3 fragments, call 2 header + 1 of its fragments, then the cut. On
    // the Responses route: the response (2 events), the message item (its added, part, 2 deltas and 3 closing
    // events), call 1 (added, 3 fragments, 2 closing events), call 2 (added, 1 fragment), then the cut.
    server.enqueue({
      text: 'checking both',
      chunkSize: 8,
      toolCalls: [
        { id: 'a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'b', name: 'get_weather', arguments: { city: 'Berlin' } },
      ],
      cutAfter: onWire({ chat: 9, responses: 17 }),
    });
    const tool = weather();
    const onToolCall = jest.fn();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool], onToolCall });

    expect(onToolCall).toHaveBeenCalledTimes(2); // both calls had started streaming
    expect(tool.calls).toHaveLength(0);
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeDefined();
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'checking both' });
    assertValidHistory(result.completeMessages);
  });

  it('returns a stream cut after a complete tool turn as an error without running the tools', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Rome' } }] },
      // Everything but the finish chunk arrives: the call looks whole, yet the turn never ended.
      { toolCalls: [{ id: 'c2', name: 'get_weather', arguments: { city: 'Lima' } }], cutAfter: 5 },
    );
    const tool = weather();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    expect(tool.calls.map((c) => c.params.city)).toEqual(['Rome']);
    expect(result.stopReason).toBe('error');
    expect(roles(result.completeMessages)).toEqual(['user', 'assistant', 'tool']);
    assertValidRequests(server.requests);
    assertValidHistory(result.completeMessages);
  });

  it('returns a malformed SSE chunk as an error, keeping the text before it and running no tool', async () => {
    server.enqueue({
      text: 'partial answer',
      chunkSize: 7,
      toolCalls: [{ name: 'get_weather', arguments: { city: 'X' } }],
      // After the two text chunks (on the Responses route: after the response, the message item's start and both deltas).
      malformedChunkAt: onWire({ chat: 3, responses: 6 }),
    });
    const tool = weather();
    // The SDK logs the bad line through its logger before it throws; keep the test output clean.
    const result = await runAgentLoop({ client: server.client({ logLevel: 'off' }), body, tools: [tool] });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(SyntaxError);
    expect(tool.calls).toHaveLength(0);
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'partial answer' });
    assertValidHistory(result.completeMessages);
  });

  it('returns an in-stream {"error": …} event as an error value', async () => {
    server.enqueue({ text: 'abc', streamErrorAt: 1, errorMessage: 'model overloaded' });
    const result = await runAgentLoop({ client: server.client(), body, tools: [weather()] });
    expect(result.stopReason).toBe('error');
    expect((result.error as Error).message).toMatch(/model overloaded/);
    assertValidHistory(result.completeMessages);
  });

  it('times out a stalled server through requestOptions.timeout, and through the client timeout', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'too late', delayMs: 10_000 },
    );
    const viaRequest = await runAgentLoop({
      client: server.client(),
      body,
      tools: [weather()],
      // The first turn must come back within it: stretched on a busy machine (the stall is 10 s).
      requestOptions: { timeout: stretchedTimeout(100) },
    });
    expect(viaRequest.stopReason).toBe('error');
    // The SDK classifies the timeout abort as APIConnectionTimeoutError in plain Node; under jest's vm realm the
    // abort error fails its instanceof check and it reports the parent class. Either way: a connection error value.
    expect(viaRequest.error).toBeInstanceOf(APIConnectionError);
    expect(roles(viaRequest.completeMessages)).toEqual(['user', 'assistant', 'tool']);

    server.enqueue({ text: 'too late', delayMs: 10_000 });
    const viaClient = await runAgentLoop({
      client: server.client({ timeout: stretchedTimeout(100) }),
      body,
      tools: [weather()],
    });
    expect(viaClient.stopReason).toBe('error');
    expect(viaClient.error).toBeInstanceOf(APIConnectionError);
    expect(viaClient.completeMessages).toEqual(body.messages);
    assertValidRequests(server.requests);
  });

  it('returns a refused connection as an error value', async () => {
    const port = await unusedPort();
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-test-refused', maxRetries: 0 });
    const result = await runAgentLoop({ client, body, tools: [weather()] });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(APIConnectionError);
    expect(result.completeMessages).toEqual(body.messages);
    expect(result.runTimes).toBe(1);
  });

  it('returns a refused connection as an error value for a client built from userKey', async () => {
    const port = await unusedPort();
    const result = await runAgentLoop({
      userKey: { baseUrl: `http://127.0.0.1:${port}/v1`, key: 'sk-test-refused' },
      body,
      tools: [weather()],
      // The built client retries a refused connection after 375-500 ms of backoff; the run deadline comes first and
      // must end the run cleanly once the SDK wakes up to retry.
      timeoutMs: 300,
    });
    expect(result.stopReason).toBe('timeout');
    expect(result.finish_reason).toBe('close');
    expect(result.completeMessages).toEqual(body.messages);
  });
});
