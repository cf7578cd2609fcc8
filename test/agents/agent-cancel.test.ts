import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defineAgent, runAgentLoop, type RunAgentResponse, type RunState } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

type Message = { role: string; content?: unknown; tool_call_id?: string };
const toolMessages = (messages: unknown) => (messages as Message[]).filter((m) => m.role === 'tool');

/** Resolves once `check` holds (checked on each turn of the event loop): waits for the runs below the root to unwind. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('cancel, abort and failure in a tree of agents', () => {
  let server: ScriptedServer;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('agentcall-agents');
  afterAll(() => provider.shutdown());
  beforeEach(async () => {
    exporter.reset();
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  /**
   * root → outer → inner → wait: `wait` runs until its signal aborts. The root runs with `extra`; `stop` is called
   * once `wait` runs.
   */
  async function stopInside(extra: Partial<Parameters<typeof runAgentLoop>[0]>, stop: () => void) {
    let seen: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = fakeTool('wait', ({ signal }) => {
      seen = signal;
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ response: 'stopped' })));
    });
    const inner = defineAgent({ name: 'inner', description: 'I', instructions: 'I.', tools: [wait] });
    const outer = defineAgent({ name: 'outer', description: 'O', instructions: 'O.', tools: [inner] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'outer', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'o1', name: 'inner', arguments: { task: 'u' } }] });
    server.enqueue({ toolCalls: [{ id: 'w1', name: 'wait' }] });
    const saved: RunState[] = [];
    const result: RunAgentResponse = await Promise.all([
      runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('go')] },
        tools: [outer],
        tracer,
        onCheckpoint: (state) => {
          saved.push(JSON.parse(JSON.stringify(state)) as RunState);
        },
        ...extra,
      }),
      running.then(stop),
    ]).then(([r]) => r);
    // Both agents runs end (their spans close) and nothing is asked of the model after the stop.
    await until(() => exporter.getFinishedSpans().filter((s) => s.name.startsWith('invoke_agent ')).length === 2);
    return { result, seen: seen!, saved, wait };
  }

  it('reaches every descendant when the root is aborted: the deepest tool sees it, no run asks the model again', async () => {
    const controller = new AbortController();
    const { result, seen, saved } = await stopInside({ abortSignal: controller.signal }, () => controller.abort());
    expect(result.stopReason).toBe('aborted');
    expect(seen.aborted).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(toolMessages(result.state.messages)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Tool error: outer was aborted' },
    ]);
    // No turn of a stopped child is saved over the root's last state.
    expect(saved.at(-1)).toEqual(JSON.parse(JSON.stringify(result.state)));
    expect(saved.at(-1)?.children).toBeUndefined();
  });

  it('reaches every descendant when isAborted turns true (the queue cancel) and when the run times out', async () => {
    let cancelled = false;
    const byCancel = await stopInside({ isAborted: () => cancelled }, () => (cancelled = true));
    expect(byCancel.result.stopReason).toBe('aborted');
    expect(byCancel.seen.aborted).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(byCancel.saved.at(-1)?.children).toBeUndefined();
    await server.close();
    exporter.reset();
    server = await startScriptedServer();

    // The deadline passes while the deepest tool runs: a fake clock, so no verdict waits on the machine.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const byTimeout = await stopInside({ timeoutMs: 60_000 }, () => jest.advanceTimersByTime(60_000));
      expect(byTimeout.result.stopReason).toBe('timeout');
      expect(byTimeout.seen.aborted).toBe(true);
      expect(server.requests).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it("answers a grandchild's failure as a tool message its parent reads; no run rejects, the root completes", async () => {
    const broken = defineAgent({ name: 'broken', description: 'B', instructions: 'B.', tools: [] });
    const outer = defineAgent({ name: 'outer', description: 'O', instructions: 'O.', tools: [broken] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'outer', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'o1', name: 'broken', arguments: { task: 'u' } }] });
    server.enqueue({ status: 400, errorMessage: 'grandchild refused' });
    server.enqueue({ text: 'outer read the failure' });
    server.enqueue({ text: 'root done' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [outer],
    });
    expect(result.stopReason).toBe('completed');
    expect(toolMessages(server.requests[3].body.messages)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'o1',
        content: expect.stringMatching(/^Tool error: agent broken failed: .*grandchild refused/),
      },
    ]);
    expect(toolMessages(result.state.messages)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'outer read the failure' },
    ]);
    assertValidRequests(server.requests);
  });
});
