import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { LLMClient } from '../../src/llm/client';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { useAsyncContext } from '../helpers/otel-context';
import { fakeTool, user } from '../helpers/tools';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runAgentLoop live spans', () => {
  let server: ScriptedServer;
  let restoreContext: () => void;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('agentcall-live');

  beforeAll(() => {
    restoreContext = useAsyncContext();
  });
  afterAll(async () => {
    restoreContext();
    await provider.shutdown();
  });
  beforeEach(async () => {
    exporter.reset();
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const spansNamed = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;

  /** A client whose requests start a span of their own, as an instrumented HTTP client does. */
  const instrumented = (client: LLMClient): LLMClient => ({
    chat: {
      completions: {
        create: (body, options) => {
          tracer.startSpan('http POST').end();
          return client.chat.completions.create(body, options);
        },
      },
    },
  });

  it("makes the caller's span the run's parent, each request's span the client's, and each call's span its tool's, with calls running at once", async () => {
    // Each query starts a span in the middle of its work, after the other call has started too.
    const query = fakeTool<{ key: string }>('query', async ({ params }) => {
      await delay(params.key === 'a' ? 30 : 10);
      tracer.startSpan(`db ${params.key}`).end();
      await delay(10);
      return { response: `rows of ${params.key}` };
    });
    const session = server.session([
      {
        toolCalls: [
          { id: 'call_a', name: 'query', arguments: { key: 'a' } },
          { id: 'call_b', name: 'query', arguments: { key: 'b' } },
        ],
      },
      { text: 'Two results.' },
    ]);
    const result = await tracer.startActiveSpan('handle request', async (handler) => {
      const ran = await runAgentLoop({
        client: instrumented(session.client()),
        body: { model: 'm-live', messages: [user('Query both.')] },
        tools: [query],
        toolConcurrency: 2,
        tracer,
      });
      handler.end();
      return ran;
    });
    expect(result.stopReason).toBe('completed');

    const [handler] = spansNamed('handle request');
    const [run] = spansNamed('invoke_agent');
    expect(parentOf(run)).toBe(idOf(handler));
    const chats = spansNamed('chat m-live');
    const https = spansNamed('http POST');
    expect(chats).toHaveLength(2);
    expect(https.map(parentOf).sort()).toEqual(chats.map(idOf).sort());
    for (const chat of chats) expect(parentOf(chat)).toBe(idOf(run));

    const tools = spansNamed('execute_tool query');
    const toolOf = (id: string) => tools.find((s) => s.attributes['gen_ai.tool.call.id'] === id)!;
    for (const key of ['a', 'b']) {
      const [db] = spansNamed(`db ${key}`);
      const tool = toolOf(`call_${key}`);
      expect(parentOf(tool)).toBe(idOf(run));
      expect(parentOf(db)).toBe(idOf(tool));
      // The call's span was open while its tool worked.
      expect(hrMs(tool.startTime)).toBeLessThanOrEqual(hrMs(db.startTime));
      expect(hrMs(tool.endTime)).toBeGreaterThanOrEqual(hrMs(db.endTime));
    }
    // Started when the work started: both calls ran at once, so each began before the other ended.
    expect(hrMs(toolOf('call_a').startTime)).toBeLessThan(hrMs(toolOf('call_b').endTime));
    expect(hrMs(toolOf('call_b').startTime)).toBeLessThan(hrMs(toolOf('call_a').endTime));
  });

  it('names the provider on the run and its requests, records time to first chunk in seconds, and error.type only on failures', async () => {
    const broken = fakeTool('broken', () => {
      throw new TypeError('bad row');
    });
    const fine = fakeTool('fine', () => ({ response: 'ok' }));
    const session = server.session([
      {
        toolCalls: [
          { id: 'call_x', name: 'broken', arguments: {} },
          { id: 'call_y', name: 'fine', arguments: {} },
          { id: 'call_z', name: 'made_up', arguments: {} },
        ],
      },
      { status: 500, errorMessage: 'upstream down' },
    ]);
    const result = await runAgentLoop({
      client: session.client(),
      body: { model: 'm-attr', messages: [user('Go.')] },
      tools: [broken, fine],
      tracer,
    });
    expect(result.stopReason).toBe('error');

    const [run] = spansNamed('invoke_agent');
    const [ok, failed] = spansNamed('chat m-attr');
    expect(run.attributes['gen_ai.provider.name']).toBe('openai');
    expect(run.attributes['error.type']).toBe(result.error!.name);
    expect(ok.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai' });
    expect(ok.attributes['error.type']).toBeUndefined();
    const firstChunk = ok.attributes['gen_ai.response.time_to_first_chunk'];
    expect(typeof firstChunk).toBe('number');
    expect(firstChunk as number).toBeGreaterThanOrEqual(0);
    expect(firstChunk as number).toBeLessThan(10);
    expect(failed.attributes['error.type']).toBe(result.error!.name);
    for (const span of exporter.getFinishedSpans()) {
      expect(Object.keys(span.attributes).some((key) => key.includes('first_chunk_ms'))).toBe(false);
      expect(span.attributes['gen_ai.operation.name']).toEqual(span.name.split(' ')[0]);
    }
    const tool = (id: string) => spansNamed(`execute_tool ${id}`)[0];
    expect(tool('broken').attributes['error.type']).toBe('TypeError');
    expect(tool('made_up').attributes['error.type']).toBe('not_found');
    expect(tool('fine').attributes['error.type']).toBeUndefined();
    expect(tool('fine').attributes['gen_ai.provider.name']).toBeUndefined();
  });

  it("keeps one trace across a pause for approval: the approved call's span is the resumed run's child", async () => {
    const send = fakeTool('send', () => ({ response: 'sent' }), { needsApproval: true });
    const first = server.session([{ toolCalls: [{ id: 'call_s', name: 'send', arguments: {} }] }]);
    const paused = await runAgentLoop({
      client: first.client(),
      body: { model: 'm-1', messages: [user('Send it.')] },
      tools: [send],
      tracer,
    });
    expect(paused.stopReason).toBe('interactive');
    const second = server.session([{ text: 'Sent.' }]);
    const resumed = await runAgentLoop({
      client: second.client(),
      body: { model: 'm-1', messages: [] },
      tools: [send],
      tracer,
      resumeFrom: JSON.parse(JSON.stringify(paused.state)) as typeof paused.state,
      decisions: { call_s: { approve: true } },
    });
    expect(resumed.stopReason).toBe('completed');
    const runs = spansNamed('invoke_agent');
    const [call] = spansNamed('execute_tool send');
    expect(runs).toHaveLength(2);
    expect(new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(parentOf(runs[1])).toBe(idOf(runs[0]));
    expect(parentOf(call)).toBe(idOf(runs[1]));
    expect(resumed.state.traceparent).toBe(`00-${runs[1].spanContext().traceId}-${idOf(runs[1])}-01`);
  });

  it('reports a tracer that throws to onHookError, like any observer, and the run goes on', async () => {
    const flaky = {
      startSpan: (name: string, options?: object, ctx?: unknown) => {
        if (name.startsWith('chat')) throw new Error('tracer bug');
        return tracer.startSpan(name, options, ctx as never);
      },
    };
    const reported: string[] = [];
    const result = await runAgentLoop({
      client: server.session([{ text: 'Hi.' }]).client(),
      body: { model: 'm-1', messages: [user('Hi')] },
      tools: [],
      tracer: flaky,
      onHookError: ({ hook }) => void reported.push(hook),
    });
    expect(result.stopReason).toBe('completed');
    expect(reported).toEqual(['tracer.requestStart']);
    expect(spansNamed('invoke_agent')).toHaveLength(1);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

function hrMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
