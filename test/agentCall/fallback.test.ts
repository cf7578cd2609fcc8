import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import type { RequestEndEvent, RunAgentCallProps } from '../../src/agentCall/type';
import { InvalidFallbackError, InvalidRunStateError } from '../../src/errors';
import type { FallbackEntry } from '../../src/agentCall/fallback/fallback-entry';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { assertValidHistory } from '../helpers/history';
import { unusedPort } from '../helpers/network';
import { fakeTool, user } from '../helpers/tools';
import { onWire } from '../helpers/wire-under-test';
import OpenAI from 'openai';

/** The tool call of a first turn, and the answer of a second. */
const CALL: ScriptedReply = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
const ANSWER: ScriptedReply = { text: 'Sunny in Paris.' };

describe('runAgentLoop fallback', () => {
  let primary: ScriptedServer;
  let second: ScriptedServer;
  let third: ScriptedServer;

  beforeEach(async () => {
    [primary, second, third] = await Promise.all([startScriptedServer(), startScriptedServer(), startScriptedServer()]);
  });
  afterEach(() => Promise.all([primary.close(), second.close(), third.close()]));

  const weather = () => fakeTool('get_weather', () => ({ response: 'sunny' }));

  /** A run on `primary` (model `m-primary`) with `m-second` and `m-third` as its fallbacks, each on its own server. */
  function props(extra: Partial<RunAgentCallProps> = {}): RunAgentCallProps {
    return {
      client: primary.client(),
      body: { model: 'm-primary', messages: [user('Weather in Paris?')] },
      tools: [weather()],
      fallback: [
        { model: 'm-second', client: second.client() },
        { model: 'm-third', client: third.client() },
      ],
      ...extra,
    };
  }

  it('sends the same request to the next model after a 429, and stays there for the rest of the run', async () => {
    primary.enqueue({ status: 429, errorMessage: 'Rate limit reached' });
    second.enqueue(CALL, ANSWER);
    const ends: RequestEndEvent[] = [];
    const usageModels: (string | undefined)[] = [];
    const toolModels: (string | undefined)[] = [];
    const result = await runAgentLoop(
      props({
        onRequestEnd: (e) => void ends.push(e),
        usagePush: (items) => void usageModels.push(...items.map((u) => u.model)),
        onAfterToolCall: (e) => void toolModels.push(e.model),
      }),
    );

    expect(result.stopReason).toBe('completed');
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('Sunny in Paris.');
    expect([primary.requests.length, second.requests.length, third.requests.length]).toEqual([1, 2, 0]);
    // The same history went to the fallback, under its own model name.
    expect(second.requests[0].body.messages).toEqual(primary.requests[0].body.messages);
    expect(second.requests.map((r) => r.body.model)).toEqual(['m-second', 'm-second']);
    // Every request is reported, the one passed over with its error; usage names the model that answered.
    expect(ends.map((e) => [e.model, (e.error as { status?: number } | undefined)?.status])).toEqual([
      ['m-primary', 429],
      ['m-second', undefined],
      ['m-second', undefined],
    ]);
    expect(usageModels).toEqual(['m-second', 'm-second']);
    expect(toolModels).toEqual(['m-second']);
    expect(result.usages.map((u) => u.model)).toEqual(['m-second', 'm-second']);
    expect(result.runTimes).toBe(2);
    expect(result.requestIds).toHaveLength(2);
    expect(result.state).toMatchObject({ model: 'm-second', fallbackIndex: 0, turn: 2 });
    assertValidHistory(result.completeMessages);
  });

  it.each([500, 502, 503, 529])('falls back after a %i', async (status) => {
    primary.enqueue({ status });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('Sunny in Paris.');
    expect([primary.requests.length, second.requests.length]).toEqual([1, 1]);
  });

  it('falls back on a request that is not streamed', async () => {
    primary.enqueue({ status: 503 });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(
      props({ body: { model: 'm-primary', messages: [user('Weather in Paris?')], stream: false } }),
    );
    expect(result.stopReason).toBe('completed');
    expect(second.requests[0].body.stream).toBe(false);
  });

  it('falls back when the stream reports a server error before any of the answer', async () => {
    primary.enqueue({ text: 'never shown', streamErrorAt: 0 });
    second.enqueue(ANSWER);
    const streamed: string[] = [];
    const result = await runAgentLoop(props({ onStreaming: ({ text }) => void streamed.push(text) }));
    expect(result.stopReason).toBe('completed');
    expect(streamed.join('')).toBe('Sunny in Paris.');
  });

  it("falls back on an overloaded error sent inside the stream (Anthropic's overloaded_error)", async () => {
    const event = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    primary.enqueue({
      recorded: { headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(event)}\n\n` },
    });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('completed');
    expect(result.state.model).toBe('m-second');
  });

  it('falls back when the connection is refused', async () => {
    const closed = new OpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${await unusedPort()}/v1`, maxRetries: 0 });
    second.enqueue(ANSWER);
    const ends: RequestEndEvent[] = [];
    const result = await runAgentLoop(props({ client: closed, onRequestEnd: (e) => void ends.push(e) }));
    expect(result.stopReason).toBe('completed');
    expect(ends[0].model).toBe('m-primary');
    expect((ends[0].error as Error).name).toBe('ModelConnectionError');
    expect(second.requests).toHaveLength(1);
  });

  it('falls back when the connection drops under the stream before any of the answer', async () => {
    primary.enqueue({ text: 'never shown', cutAfter: 1 });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('completed');
    expect(result.state.model).toBe('m-second');
  });

  it('falls back when the stream stalls before any of the answer', async () => {
    primary.enqueue({ text: 'late', chunkDelayMs: 5_000 });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(props({ requestOptions: { timeout: 150 } }));
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('Sunny in Paris.');
    expect(result.state.fallbackIndex).toBe(0);
  });

  it('does not fall back once part of the answer reached the hooks: the error comes back with what arrived', async () => {
    // The error comes right after the first text delta.
    primary.enqueue({ text: 'Sunny in', chunkSize: 8, streamErrorAt: onWire({ chat: 2, responses: 5 }) });
    second.enqueue(ANSWER);
    const streamed: string[] = [];
    const result = await runAgentLoop(props({ onStreaming: ({ text }) => void streamed.push(text) }));
    expect(result.stopReason).toBe('error');
    expect(streamed).toEqual(['Sunny in']);
    expect(result.text).toBe('Sunny in');
    expect(second.requests).toHaveLength(0);
    expect(result.state).toMatchObject({ model: 'm-primary' });
    expect(result.state.fallbackIndex).toBeUndefined();
  });

  it('does not fall back once a tool call was announced', async () => {
    primary.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], cutAfter: 3 });
    second.enqueue(ANSWER);
    const announced: string[] = [];
    const result = await runAgentLoop(props({ onToolCall: ({ call }) => void announced.push(call.function.name) }));
    expect(announced).toEqual(['get_weather']);
    expect(result.stopReason).toBe('error');
    expect(second.requests).toHaveLength(0);
  });

  it.each([400, 401, 403, 404, 422])('never falls back after a %i: its error comes back', async (status) => {
    primary.enqueue({ status, errorMessage: 'refused' });
    second.enqueue(ANSWER);
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('error');
    expect((result.error as { status?: number }).status).toBe(status);
    expect(second.requests).toHaveLength(0);
    expect(result.state.fallbackIndex).toBeUndefined();
  });

  it('stops at a fallback that answers 400, without trying the next one', async () => {
    primary.enqueue({ status: 503 });
    second.enqueue({ status: 400, errorMessage: 'bad tool schema for this model' });
    third.enqueue(ANSWER);
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('error');
    expect((result.error as { status?: number }).status).toBe(400);
    expect(third.requests).toHaveLength(0);
    expect(result.state).toMatchObject({ model: 'm-second', fallbackIndex: 0 });
  });

  it('hands back the last error when every model fails, with every message kept', async () => {
    primary.enqueue(CALL, { status: 500 });
    second.enqueue({ status: 503 });
    third.enqueue({ status: 429, errorMessage: 'third is busy' });
    const result = await runAgentLoop(props());
    expect(result.stopReason).toBe('error');
    expect((result.error as { status?: number }).status).toBe(429);
    expect(result.error?.message).toContain('third is busy');
    expect(result.completeMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    assertValidHistory(result.completeMessages);
    expect([primary.requests.length, second.requests.length, third.requests.length]).toEqual([2, 1, 1]);
    expect(result.usages.map((u) => u.model)).toEqual(['m-primary', 'm-third']);
    expect(result.state).toMatchObject({ model: 'm-third', fallbackIndex: 1 });
  });

  it("sends a fallback's requests over its own wire: a Responses entry behind a chat primary", async () => {
    primary.enqueue({ status: 429 });
    second.enqueue(CALL, ANSWER);
    const result = await runAgentLoop(
      props({
        wire: 'chat',
        fallback: [{ model: 'm-second', client: second.client(), wire: 'responses' }],
      }),
    );
    expect(result.stopReason).toBe('completed');
    expect(primary.requests.map((r) => r.wire)).toEqual(['chat']);
    expect(second.requests.map((r) => r.wire)).toEqual(['responses', 'responses']);
    assertValidHistory(result.completeMessages);
  });

  it('sends a fallback model the deferred tools found so far', async () => {
    const mail = fakeTool('send_email', () => ({ response: 'sent' }), { deferred: true });
    const names = (server: ScriptedServer, i: number) =>
      (server.requests[i].body.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : t.type));
    primary.enqueue({ toolCalls: [{ name: 'search_tools', arguments: { query: 'email' } }] }, { status: 503 });
    second.enqueue({ toolCalls: [{ name: 'send_email', arguments: { to: 'a' } }] }, ANSWER);
    const result = await runAgentLoop(props({ tools: [weather(), mail] }));

    expect(result.stopReason).toBe('completed');
    expect(names(primary, 0)).toEqual(['get_weather', 'search_tools']);
    // The request that fell back, and the one after it, carry what the primary's search found.
    expect(names(primary, 1)).toEqual(['get_weather', 'search_tools', 'send_email']);
    expect(names(second, 0)).toEqual(['get_weather', 'search_tools', 'send_email']);
    expect(names(second, 1)).toEqual(['get_weather', 'search_tools', 'send_email']);
    expect(mail.calls).toHaveLength(1);
    expect(result.state).toMatchObject({ model: 'm-second', fallbackIndex: 0, foundTools: ['send_email'] });
  });

  it.each([
    ['not an array', { model: 'm-second' }, 'fallback'],
    ['an entry that is not an object', ['m-second'], 'fallback[0]'],
    ['an entry without a model', [{ model: 'm-second' }, { client: {} }], 'fallback[1].model'],
    ['an empty model', [{ model: '' }], 'fallback[0].model'],
    ['an unknown wire', [{ model: 'm-second', wire: 'grpc' }], 'fallback[0].wire'],
    ['a client that is not an object', [{ model: 'm-second', client: 'https://example.test' }], 'fallback[0].client'],
  ])('refuses a fallback list with %s before any request', async (_case, fallback, path) => {
    primary.enqueue(ANSWER);
    const result = await runAgentLoop(props({ fallback: fallback as unknown as FallbackEntry[] }));
    expect(result.stopReason).toBe('error');
    expect(InvalidFallbackError.isInstance(result.error)).toBe(true);
    expect((result.error as InvalidFallbackError).path).toBe(path);
    expect(primary.requests).toHaveLength(0);
  });

  it('adds nothing to the run without a fallback list', async () => {
    primary.enqueue(CALL, ANSWER);
    const seen: object[] = [];
    const result = await runAgentLoop(props({ fallback: undefined, onAfterToolCall: (e) => void seen.push(e) }));
    expect(result.stopReason).toBe('completed');
    expect(seen[0]).not.toHaveProperty('model');
    expect(result.state).not.toHaveProperty('model');
    expect(result.state).not.toHaveProperty('fallbackIndex');
  });

  it('summarises on the model the run is on: after a fallback, that entry, with its client', async () => {
    const huge = `${'row,'.repeat(3000)}END`;
    primary.enqueue({ status: 503 });
    second.enqueue(
      { toolCalls: [{ id: 'q1', name: 'query', arguments: {} }] },
      (req) => {
        expect(req.body.stream).toBe(false);
        return { text: '3000 rows', usage: { prompt_tokens: 50, completion_tokens: 3 } };
      },
      ANSWER,
    );
    const usages: string[] = [];
    const result = await runAgentLoop(
      props({
        tools: [fakeTool('query', () => ({ response: huge }))],
        compression: { maxContext: 4000 },
        usagePush: (items) => void usages.push(...items.map((u) => `${u.moduleName}:${u.model}`)),
      }),
    );

    expect(result.stopReason).toBe('completed');
    // The primary, which failed, is not asked again for the summary.
    expect(primary.requests.map((r) => r.body.model)).toEqual(['m-primary']);
    expect(second.requests.map((r) => r.body.model)).toEqual(['m-second', 'm-second', 'm-second']);
    expect(usages).toContain('compress_tool_response:m-second');
    expect(second.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: '3000 rows' });

    // `compression.model` is asked on the run's own client, fallback or not.
    primary.enqueue({ status: 503 }, { text: 'short' });
    second.enqueue({ toolCalls: [{ id: 'q2', name: 'query', arguments: {} }] }, ANSWER);
    const named = await runAgentLoop(
      props({
        tools: [fakeTool('query', () => ({ response: huge }))],
        compression: { maxContext: 4000, model: 'm-summary' },
      }),
    );
    expect(named.stopReason).toBe('completed');
    expect(primary.requests.slice(1).map((r) => r.body.model)).toEqual(['m-primary', 'm-summary']);
  });

  it("uses the run's client for an entry without one", async () => {
    primary.enqueue({ status: 503 }, ANSWER);
    const result = await runAgentLoop(props({ fallback: [{ model: 'm-cheap' }] }));
    expect(result.stopReason).toBe('completed');
    expect(primary.requests.map((r) => r.body.model)).toEqual(['m-primary', 'm-cheap']);
  });

  describe('resume', () => {
    /** A first run that fell back to `m-second` and stopped after its tool turn (one model turn allowed). */
    async function savedOnSecond(): Promise<RunState> {
      primary.enqueue({ status: 429 });
      second.enqueue(CALL);
      const first = await runAgentLoop(props({ maxRunAgentTimes: 1 }));
      expect(first.stopReason).toBe('max_turns');
      expect(first.state).toMatchObject({ model: 'm-second', fallbackIndex: 0 });
      return JSON.parse(JSON.stringify(first.state)) as RunState;
    }

    it('goes on with the model the state was on, without trying the primary', async () => {
      const state = await savedOnSecond();
      second.enqueue(ANSWER);
      const resumed = await runAgentLoop(props({ resumeFrom: state, maxRunAgentTimes: 2 }));
      expect(resumed.stopReason).toBe('completed');
      expect([primary.requests.length, second.requests.length]).toEqual([1, 2]);
      expect(resumed.usages.map((u) => u.model)).toEqual(['m-second']);
      expect(resumed.state).toMatchObject({ model: 'm-second', fallbackIndex: 0 });
    });

    it('moves further down the list from there, never back up', async () => {
      const state = await savedOnSecond();
      second.enqueue({ status: 500 });
      third.enqueue(ANSWER);
      const resumed = await runAgentLoop(props({ resumeFrom: state, maxRunAgentTimes: 2 }));
      expect(resumed.stopReason).toBe('completed');
      expect([primary.requests.length, second.requests.length, third.requests.length]).toEqual([1, 2, 1]);
      expect(resumed.state).toMatchObject({ model: 'm-third', fallbackIndex: 1 });
    });

    it('saves where the run is in every checkpoint', async () => {
      primary.enqueue({ status: 429 });
      second.enqueue(CALL, ANSWER);
      const saved: RunState[] = [];
      await runAgentLoop(props({ onCheckpoint: (s) => void saved.push(s) }));
      expect(saved.map((s) => [s.model, s.fallbackIndex])).toEqual([
        ['m-second', 0],
        ['m-second', 0],
      ]);
    });

    it('starts on the primary when the list given now has no entry there, or another model there', async () => {
      const state = await savedOnSecond();
      primary.enqueue(ANSWER, ANSWER);
      const shorter = await runAgentLoop(props({ resumeFrom: state, maxRunAgentTimes: 2, fallback: [] }));
      expect(shorter.stopReason).toBe('completed');
      expect(shorter.usages.map((u) => u.model)).toEqual(['m-primary']);
      expect(shorter.state.model).toBeUndefined();
      expect(shorter.state.fallbackIndex).toBeUndefined();

      const renamed = await runAgentLoop(
        props({ resumeFrom: state, maxRunAgentTimes: 2, fallback: [{ model: 'm-other', client: second.client() }] }),
      );
      expect(renamed.usages.map((u) => u.model)).toEqual(['m-primary']);
      expect(renamed.state).toMatchObject({ model: 'm-primary' });
      expect(renamed.state.fallbackIndex).toBeUndefined();
      expect(second.requests).toHaveLength(1);
    });

    it.each([
      ['a negative index', { fallbackIndex: -1, model: 'm-second' }, 'fallbackIndex'],
      ['a fractional index', { fallbackIndex: 0.5, model: 'm-second' }, 'fallbackIndex'],
      ['an index as a string', { fallbackIndex: '0', model: 'm-second' }, 'fallbackIndex'],
      ['an index past safe integers', { fallbackIndex: 2 ** 53, model: 'm-second' }, 'fallbackIndex'],
      ['a model that is not a string', { model: 7 }, 'model'],
      ['an index without its model', { fallbackIndex: 0, model: undefined }, 'model'],
    ])('refuses a state with %s: nothing runs', async (_label, fields, path) => {
      const state = { ...(await savedOnSecond()), ...fields } as unknown as RunState;
      const before = primary.requests.length + second.requests.length + third.requests.length;
      const resumed = await runAgentLoop(props({ resumeFrom: state, maxRunAgentTimes: 5 }));
      expect(resumed.stopReason).toBe('error');
      expect(resumed.error).toBeInstanceOf(InvalidRunStateError);
      expect(resumed.error?.message).toContain(path);
      expect(primary.requests.length + second.requests.length + third.requests.length).toBe(before);
    });
  });

  it('names the model of each request on its span', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    primary.enqueue({ status: 503 });
    const session = second.session([ANSWER]);
    // The fallback's client speaks to Anthropic's OpenAI-compatible endpoint: its requests reach `second` here.
    const anthropic = new OpenAI({
      apiKey: session.apiKey,
      baseURL: 'https://api.anthropic.com/v1',
      maxRetries: 0,
      fetch: (url, init) => fetch(String(url).replace('https://api.anthropic.com/v1', second.baseURL), init),
    });
    const result = await runAgentLoop(
      props({ tracer: provider.getTracer('fallback-test'), fallback: [{ model: 'm-second', client: anthropic }] }),
    );
    expect(result.stopReason).toBe('completed');
    const chats = exporter.getFinishedSpans().filter((span) => span.name.startsWith('chat '));
    expect(
      chats.map((span) => [
        span.name,
        span.attributes['gen_ai.provider.name'],
        span.attributes['gen_ai.request.model'],
        span.attributes['gen_ai.response.model'],
        span.attributes['error.type'],
      ]),
    ).toEqual([
      ['chat m-primary', 'openai', 'm-primary', undefined, 'Error'],
      ['chat m-second', 'anthropic', 'm-second', 'm-second', undefined],
    ]);
    await provider.shutdown();
  });
});
