import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type AgentRuns } from '../../src/bullmq';
import type { RunEvent, RunSetup } from '../../src/bullmq';
import { useAsyncContext } from '../helpers/otel-context';
import { useQueueTestbed } from '../helpers/queue-testbed';
import { fakeTool, user } from '../helpers/tools';

describe('queued runs and their observers, on a real Redis', () => {
  const bed = useQueueTestbed();
  let restoreContext: () => void;
  beforeAll(() => {
    restoreContext = useAsyncContext();
  });
  afterAll(() => restoreContext());

  const open = (options: { turnsPerJob?: number } = {}): AgentRuns => bed.open(options);

  async function eventsOf(runs: AgentRuns, runId: string): Promise<RunEvent[]> {
    const events: RunEvent[] = [];
    for await (const event of runs.events(runId)) events.push(event);
    return events;
  }

  it("publishes every text, reasoning and tool event although the setup's own hooks throw", async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found it' }));
    bed.server.enqueue(
      { reasoning: 'Thinking.', text: 'Looking.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { text: 'Done.' },
    );
    const reported: string[] = [];
    const fail = () => {
      throw new Error('hook bug');
    };
    const setup = async (): Promise<RunSetup> => ({
      client: bed.server.client(),
      tools: [lookup],
      onStreaming: fail,
      onReasoning: fail,
      onToolCall: fail,
      onAfterToolCall: fail,
      onHookError: ({ hook }) => void reported.push(hook),
    });
    const runs = open();
    await runs.worker({ setup }).waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });
    expect(record.status).toBe('completed');

    const events = await eventsOf(runs, runId);
    const texts = (type: 'text' | 'reasoning') => events.flatMap((e) => (e.type === type ? [e.text] : [])).join('');
    expect(texts('text')).toBe('Looking.Done.');
    expect(texts('reasoning')).toBe('Thinking.');
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_result')).toEqual([
      expect.objectContaining({ type: 'tool_result', callId: 'c1', name: 'lookup', response: 'found it' }),
    ]);
    expect(new Set(reported)).toEqual(new Set(['onStreaming', 'onReasoning', 'onToolCall', 'onAfterToolCall']));
  });

  it('traces a run that goes through several jobs as one trace, each job a run span, its spans live', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('queued');
    const lookup = fakeTool('lookup', ({ call }) => {
      tracer.startSpan(`db ${call.id}`).end();
      return { response: 'found' };
    });
    bed.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { toolCalls: [{ id: 'c2', name: 'lookup', arguments: {} }] },
      { text: 'Done.' },
    );
    // One turn per job: the run goes through three jobs, each a run span of the same trace.
    const runs = open({ turnsPerJob: 1 });
    await runs
      .worker({ setup: async () => ({ client: bed.server.client(), tools: [lookup], tracer }) })
      .waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [user('go')] } });
    expect((await runs.wait(runId, { timeoutMs: 20_000 })).status).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((s) => s.name === name);
    const id = (s: (typeof spans)[number]) => s.spanContext().spanId;
    const jobs = named('invoke_agent');
    expect(jobs).toHaveLength(3);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(jobs[1].parentSpanContext?.spanId).toBe(id(jobs[0]));
    expect(jobs[2].parentSpanContext?.spanId).toBe(id(jobs[1]));
    const tools = named('execute_tool lookup');
    expect(tools.map((s) => s.parentSpanContext?.spanId)).toEqual([id(jobs[0]), id(jobs[1])]);
    for (const [i, call] of ['c1', 'c2'].entries()) {
      expect(named(`db ${call}`)[0].parentSpanContext?.spanId).toBe(id(tools[i]));
    }
    await provider.shutdown();
  });
});
