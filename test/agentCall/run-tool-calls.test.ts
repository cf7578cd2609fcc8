import { runAgentLoop } from '../../src/run-agent-loop';
import type { AfterToolCallEvent } from '../../src/agentCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { assertValidHistory } from '../helpers/history';

describe('a call that pauses or stops the run: later calls of the turn do not start', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const echo = () => fakeTool('echo', () => ({ response: 'echoed' }));
  const turn = (names: string[]) => ({
    toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: { i } })),
  });

  it.each([
    ['interactive', { response: '', interactive: { type: 'question' } }, 'interactive'],
    ['stop', { response: 'finished', stop: true }, 'tool_stop'],
  ] as const)('after a call returns %s, the rest are answered as skipped', async (_label, outcome, stopReason) => {
    const halting = fakeTool('halt', () => outcome);
    const tool = echo();
    const events: AfterToolCallEvent[] = [];
    server.enqueue(turn(['echo', 'halt', 'echo', 'echo']));
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool, halting],
      onAfterToolCall: (e) => events.push(e),
    });
    expect(result.stopReason).toBe(stopReason);
    expect(tool.calls).toHaveLength(1);
    expect(events.map((e) => [e.call.id, e.outcome])).toEqual([
      ['c0', 'ok'],
      ['c1', 'ok'],
      ['c2', 'skipped'],
      ['c3', 'skipped'],
    ]);
    const toolMessages = result.completeMessages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(toolMessages[3].content).toMatch(/echo was not run because an earlier call paused or stopped the run/);
    assertValidHistory(result.completeMessages);
  });

  it('with toolConcurrency, calls already running finish and no further call starts', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = fakeTool('slow', async () => {
      await gate;
      return { response: 'slow done' };
    });
    const stopper = fakeTool('stopper', () => {
      setImmediate(release);
      return { response: 'stopping', stop: true };
    });
    const tool = echo();
    server.enqueue(turn(['slow', 'stopper', 'echo', 'echo']));
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [slow, stopper, tool],
      toolConcurrency: 2,
    });
    expect(result.stopReason).toBe('tool_stop');
    expect(slow.calls).toHaveLength(1);
    expect(tool.calls).toHaveLength(0);
    const contents = result.completeMessages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(contents[0]).toBe('slow done');
    expect(contents[2]).toMatch(/was not run/);
    assertValidHistory(result.completeMessages);
  });

  it('calls past maxToolCallsPerTurn are answered as skipped and reported like any other call', async () => {
    const tool = echo();
    const events: AfterToolCallEvent[] = [];
    server.enqueue(turn(['echo', 'echo', 'echo']), { text: 'ok' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool],
      maxToolCallsPerTurn: 2,
      onAfterToolCall: (e) => events.push(e),
    });
    expect(tool.calls).toHaveLength(2);
    expect(events.map((e) => [e.call.id, e.outcome])).toEqual([
      ['c0', 'ok'],
      ['c1', 'ok'],
      ['c2', 'skipped'],
    ]);
    // Never started: no duration.
    expect(events[2].durationMs).toBe(0);
    assertValidHistory(result.completeMessages);
  });
});
