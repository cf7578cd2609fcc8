import 'reflect-metadata';
import {
  defineAgent,
  InvalidRunStateError,
  runAgentLoop,
  type AfterToolCallEvent,
  type RunState,
  type UsageItem,
} from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
type Message = { role: string; content?: unknown; tool_call_id?: string };
const toolMessages = (messages: unknown) => (messages as Message[]).filter((m) => m.role === 'tool');

describe('agents nested in a run', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('hands every child event and usage to the parent with agentPath; the root carries none', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'c_a', name: 'lookup' }] });
    server.enqueue({ text: 'child done' });
    server.enqueue({ text: 'root done' });
    const ends: AfterToolCallEvent[] = [];
    const pushed: UsageItem[] = [];
    const texts: { text: string; agentPath?: string[] }[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [research],
      onAfterToolCall: (e) => ends.push(e),
      usagePush: (items) => pushed.push(...items),
      onStreaming: (e) => texts.push(e),
    });
    expect(result.stopReason).toBe('completed');
    expect(ends.map((e) => [e.call.id, e.agentPath])).toEqual([
      ['c_a', ['call_1']],
      ['call_1', undefined],
    ]);
    expect(result.usages.map((u) => u.agentPath)).toEqual([undefined, ['call_1'], ['call_1'], undefined]);
    expect(pushed).toEqual(result.usages);
    expect(texts.find((t) => t.text.includes('child'))?.agentPath).toEqual(['call_1']);
    expect(texts.find((t) => t.text.includes('root'))?.agentPath).toBeUndefined();
  });

  it('bubbles a child approval up to the root and resumes the child with only its own, full-path decisions', async () => {
    const pay = fakeTool<{ amount: number }>('pay', ({ params }) => ({ response: `paid ${params.amount}` }), {
      needsApproval: true,
    });
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'cashier', arguments: { task: 'pay 5' } }] });
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'pay', arguments: { amount: 5 } }] });
    const checkpoints: RunState[] = [];
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [cashier],
      runId: 'root',
      onCheckpoint: (s) => {
        checkpoints.push(roundTrip(s));
      },
    });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.pending).toEqual([
      { kind: 'approval', call: expect.objectContaining({ id: 'c1' }), params: { amount: 5 }, agentPath: ['call_1'] },
    ]);
    expect(paused.state.children?.call_1.pending).toEqual([
      { kind: 'approval', call: expect.objectContaining({ id: 'c1' }), params: { amount: 5 } },
    ]);
    expect(paused.state.children?.call_1.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'Pay.' },
      { role: 'user', content: 'pay 5' },
    ]);
    expect(pay.calls).toHaveLength(0);

    // A bare child call id decides nothing nested: the run keeps waiting, no request.
    const still = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [cashier],
      resumeFrom: roundTrip(paused.state),
      decisions: { c1: { approve: true } },
    });
    expect(still.stopReason).toBe('interactive');
    expect(server.requests).toHaveLength(2);
    expect(pay.calls).toHaveLength(0);

    server.enqueue({ text: 'paid it' });
    server.enqueue({ text: 'all done' });
    const done = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [cashier],
      resumeFrom: roundTrip(paused.state),
      decisions: { 'call_1/c1': { approve: true } },
    });
    expect(done.stopReason).toBe('completed');
    expect(done.text).toBe('all done');
    expect(pay.calls).toHaveLength(1);
    expect(pay.calls[0].idempotencyKey).toBe('root:call_1/c1');
    expect(toolMessages(server.requests[2].body.messages)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'paid 5' },
    ]);
    expect(toolMessages(done.state.messages)).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: 'paid it' }]);
    expect(done.state.children).toBeUndefined();
    expect(done.state.pending).toEqual([]);
    assertValidRequests(server.requests);
  });

  it('lists every child paused in one turn and resumes each with its own decisions', async () => {
    const pay = fakeTool<{ amount: number }>('pay', ({ params }) => ({ response: `paid ${params.amount}` }), {
      needsApproval: true,
    });
    const a = defineAgent({ name: 'a', description: 'A', instructions: 'A.', tools: [pay] });
    const b = defineAgent({ name: 'b', description: 'B', instructions: 'B.', tools: [pay] });
    server.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'a', arguments: { task: 'x' } },
        { id: 'call_2', name: 'b', arguments: { task: 'y' } },
      ],
    });
    server.enqueue({ toolCalls: [{ id: 'p', name: 'pay', arguments: { amount: 1 } }] });
    server.enqueue({ toolCalls: [{ id: 'p', name: 'pay', arguments: { amount: 2 } }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [a, b],
    });
    expect(paused.state.pending.map((p) => [...(p.agentPath ?? []), p.call.id].join('/'))).toEqual([
      'call_1/p',
      'call_2/p',
    ]);
    server.enqueue({ text: 'a done' });
    server.enqueue({ text: 'b refused' });
    server.enqueue({ text: 'root done' });
    const done = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [a, b],
      resumeFrom: roundTrip(paused.state),
      decisions: { 'call_1/p': { approve: true }, 'call_2/p': { approve: false, reason: 'no' } },
    });
    expect(done.stopReason).toBe('completed');
    expect(pay.calls.map((c) => c.params)).toEqual([{ amount: 1 }]);
    expect(toolMessages(server.requests[4].body.messages)).toEqual([
      { role: 'tool', tool_call_id: 'p', content: 'Tool call rejected by the user: no' },
    ]);
    expect(toolMessages(done.state.messages).map((m) => m.content)).toEqual(['a done', 'b refused']);
  });

  it('refuses a malformed child state with a path under children.<callId>, running nothing', async () => {
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'cashier', arguments: { task: 'pay' } }] });
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'pay' }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [cashier],
    });
    const bad = roundTrip(paused.state);
    (bad.children!.call_1 as { turn: unknown }).turn = -1;
    const refused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [cashier],
      resumeFrom: bad,
      decisions: { 'call_1/c1': { approve: true } },
    });
    expect(refused.stopReason).toBe('error');
    expect(refused.error).toBeInstanceOf(InvalidRunStateError);
    expect((refused.error as InvalidRunStateError).path).toBe('children.call_1.turn');
    expect(pay.calls).toHaveLength(0);
    expect(server.requests).toHaveLength(2);
  });

  it('answers a call past maxAgentDepth, and a cycle, with tool messages that say so', async () => {
    const inner = defineAgent({ name: 'inner', description: 'I', instructions: 'I.', tools: [] });
    const outer = defineAgent({ name: 'outer', description: 'O', instructions: 'O.', tools: [inner] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'outer', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'c2', name: 'inner', arguments: { task: 't' } }] });
    server.enqueue({ text: 'outer done' });
    server.enqueue({ text: 'root done' });
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [outer],
      maxAgentDepth: 1,
    });
    expect(toolMessages(server.requests[2].body.messages)[0].content).toMatch(
      /^Tool error: agent inner was not run: .*maxAgentDepth \(1\)/,
    );

    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'planner', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'c2', name: 'critic', arguments: { task: 't' } }] });
    server.enqueue({ text: 'planner done' });
    server.enqueue({ text: 'root done' });
    const tools: { planner?: ReturnType<typeof defineAgent> } = {};
    const critic = defineAgent({ name: 'critic', description: 'C', instructions: 'C.', tools: () => [tools.planner!] });
    tools.planner = defineAgent({ name: 'planner', description: 'P', instructions: 'P.', tools: () => [critic] });
    const before = server.requests.length;
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tools.planner],
    });
    expect(server.requests.length - before).toBe(4);
    expect(toolMessages(server.requests[before + 2].body.messages)[0].content).toBe(
      'Tool error: agent critic was not run: agents call each other in a cycle (planner → critic → planner)',
    );
  });
});
