import 'reflect-metadata';
import { Param, Tool, toolsFrom } from '../../src';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { ToolParseResult } from '../../src/toolCall/type';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('runAgentLoop approvals', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const tools = () => {
    const pay = fakeTool<{ amount: number }>('pay', ({ params }) => ({ response: `paid ${params.amount}` }), {
      needsApproval: true,
      parseParams: (raw): ToolParseResult<{ amount: number }> => {
        const data = JSON.parse(raw || '{}') as { amount?: unknown };
        return typeof data.amount === 'number'
          ? { success: true, data: { amount: data.amount } }
          : { success: false, errorMessage: 'amount: must be a number' };
      },
    });
    const mail = fakeTool<{ to: string }>('mail', ({ params }) => ({ response: `mailed ${params.to}` }), {
      needsApproval: ({ params }) => params.to !== 'me',
    });
    const read = fakeTool('read', () => ({ response: 'read ok' }));
    return { pay, mail, read, all: [pay, mail, read] };
  };

  it('makes every call that needs approval pending in call order, runs the others, and stops', async () => {
    const t = tools();
    server.enqueue({
      toolCalls: [
        { id: 'p1', name: 'pay', arguments: { amount: 5 } },
        { id: 'r1', name: 'read' },
        { id: 'm1', name: 'mail', arguments: { to: 'bob' } },
        { id: 'm2', name: 'mail', arguments: { to: 'me' } },
        { id: 'p2', name: 'pay', arguments: { amount: 'lots' } },
      ],
    });
    const checkpoints: RunState[] = [];
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: t.all,
      onCheckpoint: (s) => {
        checkpoints.push(s);
      },
    });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.pending).toEqual([
      { kind: 'approval', call: expect.objectContaining({ id: 'p1' }), params: { amount: 5 } },
      { kind: 'approval', call: expect.objectContaining({ id: 'm1' }), params: { to: 'bob' } },
    ]);
    expect(t.pay.calls).toHaveLength(0);
    expect(t.read.calls).toHaveLength(1);
    expect(t.mail.calls.map((c) => c.params)).toEqual([{ to: 'me' }]);
    // One tool message per call, in call order; the invalid call got the usual message, nobody was asked.
    const tail = paused.state.messages.slice(-5);
    expect(tail.map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual(['p1', 'r1', 'm1', 'm2', 'p2']);
    expect(tail[4]).toEqual({ role: 'tool', tool_call_id: 'p2', content: 'amount: must be a number' });
    expect(checkpoints.at(-1)).toEqual(paused.state);

    // Resuming without a decision for every pending call waits again: no request, no tool run.
    const waiting = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: t.all,
      resumeFrom: roundTrip(paused.state),
      decisions: { p1: { approve: true } },
    });
    expect(waiting.stopReason).toBe('interactive');
    expect(waiting.state.pending).toEqual(roundTrip(paused.state.pending));
    expect(server.requests).toHaveLength(1);
    expect(t.pay.calls).toHaveLength(0);

    server.enqueue({ text: 'Paid, and did not mail Bob.' });
    const afterToolCall: string[] = [];
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: t.all,
      resumeFrom: roundTrip(paused.state),
      decisions: { p1: { approve: true }, m1: { approve: false, reason: 'not to Bob' } },
      onAfterToolCall: ({ call, response }) => afterToolCall.push(`${call.id}=${response}`),
    });
    expect(resumed.stopReason).toBe('completed');
    expect(t.pay.calls.map((c) => c.params)).toEqual([{ amount: 5 }]);
    expect(t.mail.calls).toHaveLength(1);
    expect(afterToolCall).toEqual(['p1=paid 5', 'm1=Tool call rejected by the user: not to Bob']);
    const sent = server.requests[1].body.messages;
    expect(sent.slice(-5)).toEqual([
      { role: 'tool', tool_call_id: 'p1', content: 'paid 5' },
      { role: 'tool', tool_call_id: 'r1', content: 'read ok' },
      { role: 'tool', tool_call_id: 'm1', content: 'Tool call rejected by the user: not to Bob' },
      { role: 'tool', tool_call_id: 'm2', content: 'mailed me' },
      { role: 'tool', tool_call_id: 'p2', content: 'amount: must be a number' },
    ]);
    expect(resumed.state.pending).toEqual([]);
    assertValidRequests(server.requests);
  });

  it('sends the bare rejection text when no reason is given, and asks when a predicate throws', async () => {
    const guarded = fakeTool('wipe', () => ({ response: 'wiped' }), {
      needsApproval: () => {
        throw new Error('policy service down');
      },
    });
    server.enqueue({ toolCalls: [{ id: 'w1', name: 'wipe' }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [guarded],
    });
    expect(paused.state.pending.map((p) => p.call.id)).toEqual(['w1']);
    server.enqueue({ text: 'ok' });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [guarded],
      resumeFrom: paused.state,
      decisions: { w1: { approve: false } },
    });
    expect(guarded.calls).toHaveLength(0);
    expect(server.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'w1',
      content: 'Tool call rejected by the user',
    });
  });

  it("turns a tool's own interactive pause into a pending entry answered by a decision", async () => {
    const ask = fakeTool<{ q: string }>('ask', ({ params }) => ({
      response: 'waiting',
      interactive: { type: 'question', q: params.q },
    }));
    server.enqueue({
      toolCalls: [
        { id: 'a1', name: 'ask', arguments: { q: 'city?' } },
        { id: 'a2', name: 'ask', arguments: { q: 'dates?' } },
      ],
    });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [ask],
      toolConcurrency: 2,
    });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.pending).toEqual([
      {
        kind: 'interactive',
        call: expect.objectContaining({ id: 'a1' }),
        interactive: { type: 'question', q: 'city?' },
      },
      {
        kind: 'interactive',
        call: expect.objectContaining({ id: 'a2' }),
        interactive: { type: 'question', q: 'dates?' },
      },
    ]);
    // The seed's interactiveResponse still names one of them.
    expect(paused.interactiveResponse?.params.toolParams.toolCallId).toBe('a1');

    server.enqueue({ text: 'Lisbon in May.' });
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [ask],
      resumeFrom: roundTrip(paused.state),
      decisions: {
        a1: { answer: { response: 'Lisbon', usages: [{ moduleName: 'ask', totalPoints: 1 }] } },
        a2: { answer: { response: 'May' } },
      },
    });
    expect(resumed.stopReason).toBe('completed');
    expect(ask.calls).toHaveLength(2);
    expect(resumed.usages[0]).toEqual({ moduleName: 'ask', totalPoints: 1 });
    expect(server.requests[1].body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'a1', content: 'Lisbon' },
      { role: 'tool', tool_call_id: 'a2', content: 'May' },
    ]);
    assertValidRequests(server.requests);
  });

  it('answers an undecided interactive pause through handleInteractiveTool when one is given', async () => {
    const ask = fakeTool('ask', () => ({ response: 'waiting', interactive: { type: 'q' } }));
    server.enqueue({ toolCalls: [{ id: 'a1', name: 'ask' }] }, { text: 'thanks' });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [ask],
    });
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [ask],
      resumeFrom: paused.state,
      handleInteractiveTool: async (params) => ({ response: `handled ${params.toolParams.toolCallId}` }),
    });
    expect(resumed.stopReason).toBe('completed');
    expect(server.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'a1',
      content: 'handled a1',
    });
  });

  it('pauses again when an approved tool itself asks, and ends when it stops', async () => {
    const book = fakeTool('book', () => ({ response: 'need a seat', interactive: { type: 'seat' } }), {
      needsApproval: true,
    });
    server.enqueue({ toolCalls: [{ id: 'b1', name: 'book' }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [book],
    });
    expect(paused.state.pending[0].kind).toBe('approval');
    const asking = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [book],
      resumeFrom: roundTrip(paused.state),
      decisions: { b1: { approve: true } },
    });
    expect(asking.stopReason).toBe('interactive');
    expect(asking.state.pending).toEqual([
      { kind: 'interactive', call: expect.objectContaining({ id: 'b1' }), interactive: { type: 'seat' } },
    ]);
    expect(book.calls).toHaveLength(1);
    const stopped = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [book],
      resumeFrom: roundTrip(asking.state),
      decisions: { b1: { answer: { response: '12A', stop: true } } },
    });
    expect(stopped.stopReason).toBe('tool_stop');
    expect(book.calls).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(stopped.state.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'b1', content: '12A' });
  });

  it('gates decorated tools through @Tool({ needsApproval }) with a predicate over validated params', async () => {
    const refunds: number[] = [];
    class Billing {
      @Tool({ description: 'Refund an order', needsApproval: ({ params }) => Number(params.amount) > 100 })
      refund(@Param('amount') amount: number): string {
        refunds.push(amount);
        return `refunded ${amount}`;
      }
    }
    const tools = toolsFrom(new Billing());
    expect(typeof tools[0].needsApproval).toBe('function');
    server.enqueue({
      toolCalls: [
        { id: 'small', name: 'refund', arguments: { amount: 20 } },
        { id: 'big', name: 'refund', arguments: { amount: 500 } },
        { id: 'bad', name: 'refund', arguments: { amount: 'all of it' } },
      ],
    });
    const paused = await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools });
    expect(refunds).toEqual([20]);
    expect(paused.state.pending).toEqual([
      { kind: 'approval', call: expect.objectContaining({ id: 'big' }), params: { amount: 500 } },
    ]);
    expect(paused.state.messages.at(-1)).toEqual(
      expect.objectContaining({ tool_call_id: 'bad', content: expect.stringContaining('amount') }),
    );
    server.enqueue({ text: 'done' });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools,
      resumeFrom: roundTrip(paused.state),
      decisions: { big: { approve: true } },
    });
    expect(refunds).toEqual([20, 500]);
    assertValidRequests(server.requests);
  });
});
