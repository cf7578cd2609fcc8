import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defineAgent, runAgentLoop } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { useAsyncContext } from '../helpers/otel-context';
import { fakeTool, user } from '../helpers/tools';

describe('agent spans', () => {
  let server: ScriptedServer;
  let restoreContext: () => void;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('agentcall-agents');

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

  it("puts the child's invoke_agent <name> span, and its requests and tools, under the parent's execute_tool", async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'c_a', name: 'lookup' }] });
    server.enqueue({ text: 'child done' });
    server.enqueue({ text: 'root done' });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [research],
      tracer,
    });
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const parentOf = (name: string) => byName(name)[0].parentSpanContext?.spanId;
    const idOf = (name: string) => byName(name)[0].spanContext().spanId;
    expect(parentOf('invoke_agent research')).toBe(idOf('execute_tool research'));
    expect(parentOf('execute_tool research')).toBe(idOf('invoke_agent'));
    expect(parentOf('execute_tool lookup')).toBe(idOf('invoke_agent research'));
    expect(byName('chat m').filter((s) => s.parentSpanContext?.spanId === idOf('invoke_agent research'))).toHaveLength(
      2,
    );
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });
});
