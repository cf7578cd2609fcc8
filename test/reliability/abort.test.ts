import { runAgentLoop } from '../../src/run-agent-loop';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { ToolExecuteContext } from '../../src/toolCall/type';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { expectNoUnhandledRejections } from '../helpers/host-process';
import { fakeTool, user } from '../helpers/tools';

const toolContents = (messages: ChatCompletionMessageParam[]) =>
  messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));

describe('abort: isAborted and abortSignal stop the run wherever it is', () => {
  // No promise the loop or the SDK dropped may reject unobserved, whatever the fault.
  expectNoUnhandledRejections();
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const body = { model: 'm', messages: [user('go')] };
  const quick = () => fakeTool('quick', () => ({ response: 'quick done' }));

  /**
   * A tool that only ends through its signal, recording what it saw: a well-behaved long tool (fetch, a child
   * process) rejects with the signal's reason.
   */
  const longTool = (onStart?: (ctx: ToolExecuteContext) => void) => {
    const seen: { started: number; abortedWith: unknown[] } = { started: 0, abortedWith: [] };
    const tool = fakeTool('long', (ctx) => {
      seen.started++;
      onStart?.(ctx);
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          seen.abortedWith.push(ctx.signal.reason);
          reject(ctx.signal.reason);
        });
      });
    });
    return { tool, seen };
  };

  // The stream carries text first and tool calls after it, so an abort mid-text must keep every tool from starting.
  const slowStreamWithCalls = () => ({
    text: 'thinking out loud for a while',
    chunkSize: 3,
    chunkDelayMs: 10,
    toolCalls: [{ id: 's1', name: 'quick', arguments: {} }],
  });

  it('abortSignal during a stream: stops it, keeps the partial text, starts no tool, sends no more requests', async () => {
    server.enqueue(slowStreamWithCalls(), { text: 'never requested' });
    const controller = new AbortController();
    let chunks = 0;
    const tool = quick();
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [tool],
      abortSignal: controller.signal,
      onStreaming: () => {
        if (++chunks === 2) controller.abort(new Error('user pressed stop'));
      },
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.finish_reason).toBe('close');
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'thinki' });
    expect(tool.calls).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    assertValidHistory(result.completeMessages);
  });

  it('isAborted during a stream: the same, polled on every chunk', async () => {
    server.enqueue(slowStreamWithCalls(), { text: 'never requested' });
    let chunks = 0;
    const tool = quick();
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [tool],
      isAborted: () => chunks >= 3,
      onStreaming: () => void chunks++,
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.completeMessages.at(-1)).toEqual({ role: 'assistant', content: 'thinking ' });
    expect(tool.calls).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    assertValidHistory(result.completeMessages);
  });

  it('abortSignal during a long tool: the signal and its reason reach the tool, later calls never start', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'a', name: 'quick', arguments: {} },
          { id: 'b', name: 'long', arguments: {} },
          { id: 'c', name: 'quick', arguments: {} },
          { id: 'd', name: 'long', arguments: {} },
        ],
      },
      { text: 'never requested' },
    );
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const { tool: long, seen } = longTool(() => setTimeout(() => controller.abort(reason), 10));
    const quickTool = quick();
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [quickTool, long],
      abortSignal: controller.signal,
    });

    expect(result.stopReason).toBe('aborted');
    expect(seen.started).toBe(1);
    expect(seen.abortedWith).toEqual([reason]);
    expect(quickTool.calls).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(toolContents(result.completeMessages)).toEqual([
      'quick done',
      'Tool error: long was aborted',
      'Tool error: quick was not run because the run was aborted',
      'Tool error: long was not run because the run was aborted',
    ]);
    assertValidHistory(result.completeMessages);
  });

  it('isAborted during long concurrent tools: every running tool sees its signal abort, queued calls never start', async () => {
    const calls = Array.from({ length: 5 }, (_, i) => ({ id: `l${i}`, name: 'long', arguments: { i } }));
    server.enqueue({ toolCalls: calls });
    let stop = false;
    const { tool, seen } = longTool(() => {
      if (seen.started === 2) setTimeout(() => (stop = true), 10);
    });
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [tool],
      isAborted: () => stop,
      toolConcurrency: 2,
    });

    expect(result.stopReason).toBe('aborted');
    expect(seen.started).toBe(2);
    expect(seen.abortedWith).toHaveLength(2);
    expect(toolContents(result.completeMessages)).toEqual([
      'Tool error: long was aborted',
      'Tool error: long was aborted',
      ...Array(3).fill('Tool error: long was not run because the run was aborted'),
    ]);
    assertValidHistory(result.completeMessages);
  });

  it('does not wait for a tool that ignores its signal', async () => {
    server.enqueue({ toolCalls: [{ id: 'x', name: 'stubborn', arguments: {} }] });
    const controller = new AbortController();
    let settle: (() => void) | undefined;
    const stubborn = fakeTool('stubborn', () => {
      setTimeout(() => controller.abort(), 10);
      return new Promise((resolve) => (settle = () => resolve({ response: 'too late' })));
    });
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [stubborn],
      abortSignal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    expect(toolContents(result.completeMessages)).toEqual(['Tool error: stubborn was aborted']);
    // Its late answer changes nothing in the history the caller already holds.
    settle?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(toolContents(result.completeMessages)).toEqual(['Tool error: stubborn was aborted']);
  });

  it('abortSignal while the server stalls before answering: aborted, not an error', async () => {
    server.enqueue({ text: 'late', delayMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [quick()],
      abortSignal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.error).toBeUndefined();
    expect(result.completeMessages).toEqual(body.messages);
  });

  it('isAborted while the server stalls before answering: aborted, not an error', async () => {
    server.enqueue({ text: 'late', delayMs: 10_000 });
    let stop = false;
    setTimeout(() => (stop = true), 30);
    const result = await runAgentLoop({ client: server.client(), body, tools: [quick()], isAborted: () => stop });
    expect(result.stopReason).toBe('aborted');
    expect(result.error).toBeUndefined();
  });

  it('an already-aborted signal, or isAborted true from the start, sends no request at all', async () => {
    const controller = new AbortController();
    controller.abort();
    const viaSignal = await runAgentLoop({
      client: server.client(),
      body,
      tools: [quick()],
      abortSignal: controller.signal,
    });
    const viaPoll = await runAgentLoop({ client: server.client(), body, tools: [quick()], isAborted: () => true });
    for (const result of [viaSignal, viaPoll]) {
      expect(result.stopReason).toBe('aborted');
      expect(result.runTimes).toBe(0);
      expect(result.completeMessages).toEqual(body.messages);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('aborting between turns stops before the next request, with the finished turn intact', async () => {
    server.enqueue({ toolCalls: [{ id: 'q', name: 'quick', arguments: {} }] }, { text: 'never requested' });
    const controller = new AbortController();
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [quick()],
      abortSignal: controller.signal,
      onAfterToolCall: () => controller.abort(),
    });
    expect(result.stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
    expect(toolContents(result.completeMessages)).toEqual(['quick done']);
    assertValidRequests(server.requests);
    assertValidHistory(result.completeMessages);
  });
});
