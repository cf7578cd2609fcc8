import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { runAgentLoop } from '../../src/agentCall/run-agent-loop';
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

function hrMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
