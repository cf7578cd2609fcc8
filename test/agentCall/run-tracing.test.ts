import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RequestEndEvent } from '../../src/agentCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('runAgentLoop tracing', () => {
  let server: ScriptedServer;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('agentcall-test');

  beforeEach(async () => {
    exporter.reset();
    server = await startScriptedServer();
  });
  afterEach(() => server.close());
  afterAll(() => provider.shutdown());

  it("reports a traced run's rejecting onRequestEnd and onAfterToolCall to onHookError", async () => {
    const session = server.session([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'Warm.' },
    ]);
    const reported: string[] = [];
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-3', messages: [user('Rome?')] },
      tools: tools(),
      tracer,
      onRequestEnd: rejecting('request observer bug'),
      onAfterToolCall: rejecting('tool observer bug'),
      onHookError: ({ hook }) => void reported.push(hook),
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.stopReason).toBe('completed');
    expect(reported.sort()).toEqual(['onAfterToolCall', 'onRequestEnd', 'onRequestEnd']);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('execute_tool get_weather');
  });

  const tools = () => [
    fakeTool<{ city: string }>('get_weather', ({ params }) => ({ response: `${params.city}: 21°C` })),
    fakeTool('broken', () => {
      throw new Error('database down');
    }),
  ];

  it('records the span tree of a two-turn run with a failing and a succeeding tool', async () => {
    const session = server.session([
      {
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_b', name: 'broken', arguments: {} },
        ],
      },
      { text: 'Paris is sunny.' },
    ]);
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-1', messages: [user('Weather in Paris?')] },
      tools: tools(),
      tracer,
    });
    expect(result.stopReason).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [run] = byName('invoke_agent');
    const chats = byName('chat m-1');
    const [weather] = byName('execute_tool get_weather');
    const [broken] = byName('execute_tool broken');
    expect(spans).toHaveLength(5);
    expect(chats).toHaveLength(2);
    for (const child of [...chats, weather, broken]) {
      expect(child.spanContext().traceId).toBe(run.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    }
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.request.model': 'm-1',
      'agentcall.stop_reason': 'completed',
    });
    expect(chats[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm-1',
      'gen_ai.response.id': result.requestIds[0],
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(typeof chats[0].attributes['gen_ai.usage.input_tokens']).toBe('number');
    expect(weather.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_a',
      'agentcall.tool.outcome': 'ok',
      'agentcall.tool.response_chars': 'Paris: 21°C'.length,
    });
    expect(weather.status.code).toBe(SpanStatusCode.UNSET);
    expect(broken.attributes['agentcall.tool.outcome']).toBe('error');
    expect(broken.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error: database down' });
    // No prompt or argument content unless asked for.
    expect(JSON.stringify(spans.map((s: ReadableSpan) => s.attributes))).not.toMatch(/Paris\?|"city"/);
    // Children lie within the run's span.
    expect(hrMs(weather.startTime)).toBeGreaterThanOrEqual(hrMs(run.startTime) - 1);
    expect(result.state.traceparent).toBe(`00-${run.spanContext().traceId}-${run.spanContext().spanId}-01`);
  });

  it('continues the same trace when a paused run resumes from its state (after a JSON round trip)', async () => {
    const ask = fakeTool('ask', () => ({ response: '', interactive: { type: 'question', text: 'Which city?' } }));
    const first = server.session([{ toolCalls: [{ id: 'call_q', name: 'ask', arguments: {} }] }]);
    const paused = await runAgentLoop({
      client: first.client(),
      body: { model: 'm-1', messages: [user('Weather?')] },
      tools: [ask],
      tracer,
    });
    expect(paused.stopReason).toBe('interactive');
    const state = JSON.parse(JSON.stringify(paused.state)) as typeof paused.state;
    const second = server.session([{ text: 'Oslo is cold.' }]);
    const resumed = await runAgentLoop({
      client: second.client(),
      body: { model: 'm-1', messages: [] },
      tools: [ask],
      tracer,
      resumeFrom: state,
      decisions: { call_q: { answer: { response: 'Oslo' } } },
    });
    expect(resumed.stopReason).toBe('completed');
    const runs = exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent');
    expect(runs).toHaveLength(2);
    expect(runs[1].spanContext().traceId).toBe(runs[0].spanContext().traceId);
    expect(runs[1].parentSpanContext?.spanId).toBe(runs[0].spanContext().spanId);
  });

  it("records a compressed tool response's size before and after, and compresses exactly as without a tracer", async () => {
    const long = `${'row '.repeat(400)}end`;
    const tool = () => [
      fakeTool<{ q: string }>('search', ({ params }) => ({ response: params.q === 'big' ? long : 'small result' })),
    ];
    const turns = () => [
      {
        toolCalls: [
          { id: 'call_big', name: 'search', arguments: { q: 'big' } },
          { id: 'call_small', name: 'search', arguments: { q: 'small' } },
        ],
      },
      { text: 'Done.' },
    ];
    const run = async (traced: boolean) => {
      const session = server.session(turns());
      const compressed: string[] = [];
      const result = await runAgentLoop({
        client: session.client(),
        body: { model: 'm-1', messages: [user('Search.')] },
        tools: tool(),
        maxToolResponseTokens: 20,
        onToolCompress: (e) => compressed.push(e.call.id),
        ...(traced && { tracer }),
      });
      const toolMessages = session.requests[1].body.messages.filter((m) => m.role === 'tool');
      return { result, compressed, toolMessages };
    };

    const plain = await run(false);
    const traced = await run(true);
    expect(traced.result.stopReason).toBe('completed');
    expect(traced.toolMessages).toEqual(plain.toolMessages);
    expect(traced.compressed).toEqual(['call_big']);
    expect(plain.compressed).toEqual(['call_big']);

    const [bigMessage] = traced.toolMessages;
    expect(bigMessage.content.length).toBeLessThan(long.length);
    const spans = exporter.getFinishedSpans();
    const span = (id: string) => spans.find((s) => s.attributes['gen_ai.tool.call.id'] === id)!;
    expect(span('call_big').attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.call.id': 'call_big',
      'agentcall.tool.outcome': 'ok',
      'agentcall.tool.response_chars': long.length,
      'agentcall.tool.compressed_chars': bigMessage.content.length,
    });
    expect(span('call_small').attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.call.id': 'call_small',
      'agentcall.tool.outcome': 'ok',
      'agentcall.tool.response_chars': 'small result'.length,
    });
  });

  it('records tool arguments and results only with traceContent, secrets masked and cut', async () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const lookup = () => [
      fakeTool<{ city: string }>('lookup', ({ params }) => ({
        response:
          params.city === 'Oslo'
            ? `${params.city}: 4°C (fetched with Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345)`
            : 'x'.repeat(5000),
      })),
    ];
    const run = async (traceContent?: boolean) => {
      exporter.reset();
      const session = server.session([
        {
          toolCalls: [
            { id: 'call_oslo', name: 'lookup', arguments: { city: 'Oslo', apiKey: key } },
            { id: 'call_long', name: 'lookup', arguments: { city: 'Rome' } },
          ],
        },
        { text: 'Cold.' },
      ]);
      const result = await runAgentLoop({
        client: session.client(),
        body: { model: 'm-1', messages: [user('Oslo?')] },
        tools: lookup(),
        tracer,
        ...(traceContent !== undefined && { traceContent }),
      });
      expect(result.stopReason).toBe('completed');
      const spans = exporter.getFinishedSpans();
      return (id: string) => spans.find((s) => s.attributes['gen_ai.tool.call.id'] === id)!.attributes;
    };

    for (const off of [undefined, false]) {
      const attributes = await run(off);
      expect(Object.keys(attributes('call_oslo'))).not.toContain('gen_ai.tool.call.arguments');
      expect(Object.keys(attributes('call_oslo'))).not.toContain('gen_ai.tool.call.result');
      expect(JSON.stringify(attributes('call_oslo'))).not.toMatch(/Oslo|Bearer/);
    }

    const attributes = await run(true);
    expect(attributes('call_oslo')).toMatchObject({
      'gen_ai.tool.call.arguments': '{"city":"Oslo","apiKey":"[redacted]"}',
      'gen_ai.tool.call.result': 'Oslo: 4°C (fetched with Authorization: Bearer [redacted])',
    });
    expect(JSON.stringify(attributes('call_oslo'))).not.toContain(key);
    const cut = attributes('call_long')['gen_ai.tool.call.result'] as string;
    expect(cut).toHaveLength(2000);
    expect(cut).toMatch(/^x+ … \[cut: 5000 characters\]$/);
    expect(attributes('call_long')['agentcall.tool.response_chars']).toBe(5000);
  });

  it("masks and cuts to 200 characters a made-up tool name and the endpoint's call id, content tracing off", async () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const name = `lookup_${key}.${'n'.repeat(5_000)}`;
    const id = `call_${'i'.repeat(1_000)}`;
    const session = server.session([{ toolCalls: [{ id, name, arguments: {} }] }, { text: 'No such tool.' }]);
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-1', messages: [user('Go')] },
      tools: tools(),
      tracer,
    });
    expect(result.stopReason).toBe('completed');
    const [span] = exporter.getFinishedSpans().filter((s) => s.name.startsWith('execute_tool '));
    const toolName = span.attributes['gen_ai.tool.name'] as string;
    const callId = span.attributes['gen_ai.tool.call.id'] as string;
    expect(span.name).toBe(`execute_tool ${toolName}`);
    expect(toolName).toHaveLength(200);
    expect(toolName).toMatch(/^lookup_\[redacted-key\]\.n+ … \[cut: 5052 characters\]$/);
    expect(callId).toHaveLength(200);
    expect(callId.startsWith('call_iii')).toBe(true);
    expect(JSON.stringify([span.name, span.attributes])).not.toContain(key);
  });

  it('a tracer that throws loses its spans, never the run or the hooks', async () => {
    const throwing = {
      startSpan: (name: string) => {
        if (name === 'invoke_agent') return provider.getTracer('ok').startSpan(name);
        throw new Error('tracer bug');
      },
    };
    const session = server.session([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'Warm.' },
    ]);
    const seen: string[] = [];
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-1', messages: [user('Rome?')] },
      tools: tools(),
      tracer: throwing,
      onRequestEnd: () => seen.push('request'),
      onAfterToolCall: (e) => seen.push(e.call.function.name),
    });
    expect(result.stopReason).toBe('completed');
    expect(seen).toEqual(['request', 'get_weather', 'request']);

    const broken = {
      startSpan: (): never => {
        throw new Error('no spans today');
      },
    };
    const again = await runAgentLoop({
      client: server.session([{ text: 'Hi.' }]).client(),
      body: { model: 'm-1', messages: [user('Hi')] },
      tools: [],
      tracer: broken,
    });
    expect(again.stopReason).toBe('completed');
    expect(again.state.traceparent).toBeUndefined();
  });

  it("masks and cuts a failed tool's error on its span's status", async () => {
    const leaky = fakeTool('leaky', () => {
      throw new Error(`GET https://admin:hunter2@db.internal/q?token=abc failed ${'x'.repeat(300)}`);
    });
    const session = server.session([{ toolCalls: [{ id: 'call_l', name: 'leaky', arguments: {} }] }, { text: 'No.' }]);
    await runAgentLoop({
      client: session.client(),
      body: { model: 'm-1', messages: [user('Go.')] },
      tools: [leaky],
      tracer,
    });
    const [span] = exporter.getFinishedSpans().filter((s) => s.name === 'execute_tool leaky');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/^Error: GET https:\/\/\[redacted\] failed x+ … \[cut: \d+ characters\]$/);
    expect(span.status.message).toHaveLength(200);
  });

  it("with OpenTelemetry's no-op tracer, or a run sampled out, records nothing and runs as untraced", async () => {
    const noop = trace.getTracer('no-provider');
    const sampledOut = new BasicTracerProvider({
      sampler: new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    for (const [quiet, traceparent] of [
      [noop, undefined],
      [sampledOut.getTracer('off'), expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/)],
    ] as const) {
      const session = server.session([
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
        { text: 'Warm.' },
      ]);
      const saved: (string | undefined)[] = [];
      const result = await runAgentLoop({
        client: session.client(),
        body: { model: 'm-1', messages: [user('Rome?')] },
        tools: tools(),
        tracer: quiet,
        onCheckpoint: (state) => void saved.push(state.traceparent),
      });
      expect(result.stopReason).toBe('completed');
      // A sampled-out context is still handed on, so a resumed run stays sampled out; a no-op one is not.
      expect(result.state.traceparent).toEqual(traceparent);
      expect(saved.at(-1)).toEqual(traceparent);
    }
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    await sampledOut.shutdown();
  });

  it('reports each request to onRequestEnd without a tracer, and a throwing one never breaks the run', async () => {
    const session = server.session([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'Warm.' },
    ]);
    const events: RequestEndEvent[] = [];
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-2', messages: [user('Rome?')] },
      tools: tools(),
      onRequestEnd: (e) => {
        events.push(e);
        throw new Error('observer bug');
      },
    });
    expect(result.stopReason).toBe('completed');
    expect(events.map((e) => [e.requestId, e.model, e.finishReason])).toEqual([
      [result.requestIds[0], 'm-2', 'tool_calls'],
      [result.requestIds[1], 'm-2', 'stop'],
    ]);
    for (const e of events) {
      expect(e.ms).toBeGreaterThanOrEqual(e.firstChunkMs ?? 0);
      expect(e.firstChunkMs).toBeGreaterThanOrEqual(0);
    }
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});

/** A hook that returns a rejected promise (hooks may be async; their rejections are reported, not thrown). */
function rejecting(message: string): () => unknown {
  return () => Promise.reject(new Error(message));
}

function hrMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
