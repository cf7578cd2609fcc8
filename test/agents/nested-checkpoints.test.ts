import 'reflect-metadata';
import { defineAgent, runAgentLoop, type RunState, type ToolExecuteResult, type ToolJournal } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
type Message = { role: string; content?: unknown; tool_call_id?: string };
const messagesOf = (body: unknown) => (body as { messages: Message[] }).messages;
const toolMessages = (messages: unknown) => (messages as Message[]).filter((m) => m.role === 'tool');
const journalOver = (entries: Map<string, ToolExecuteResult>): ToolJournal => ({
  get: async (key) => entries.get(key),
  set: async (key, result) => {
    entries.set(key, result);
  },
});

describe("a child's turns checkpoint as the root's", () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('saves the root state after each child turn, and a resume without decisions continues the child', async () => {
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 't' } }] });
    server.enqueue({ toolCalls: [{ id: 'c_a', name: 'lookup' }] });
    server.enqueue({ text: 'child done' });
    server.enqueue({ text: 'root done' });
    const saved: RunState[] = [];
    const secret = 'a secret of the root';
    const first = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [research],
      runId: 'root',
      stateSecret: secret,
      onCheckpoint: (state) => {
        saved.push(roundTrip(state));
      },
    });
    expect(first.stopReason).toBe('completed');
    // The child's one turn with a call, then the root's turn and its end.
    expect(saved.map((state) => Object.keys(state.children ?? {}))).toEqual([['call_1'], [], []]);
    const inChild = saved[0];
    expect(inChild.runId).toBe('root');
    expect(inChild.signature).toEqual(expect.any(String));
    expect(inChild.pending).toEqual([]);
    expect(inChild.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'call_1' })] }),
    );
    expect(toolMessages(inChild.children?.call_1.messages)).toEqual([
      { role: 'tool', tool_call_id: 'c_a', content: 'found' },
    ]);
    expect(lookup.calls).toHaveLength(1);

    // The process died after the child's turn: the next request is the child's, and lookup does not run again.
    server.enqueue({ text: 'child done again' });
    server.enqueue({ text: 'root done again' });
    const before = server.requests.length;
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [research],
      stateSecret: secret,
      resumeFrom: inChild,
    });
    expect(resumed.stopReason).toBe('completed');
    expect(resumed.text).toBe('root done again');
    expect(lookup.calls).toHaveLength(1);
    const [childRequest, rootRequest] = server.requests.slice(before);
    expect(messagesOf(childRequest.body).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(toolMessages(messagesOf(rootRequest.body))).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'child done again' },
    ]);
    expect(server.requests).toHaveLength(before + 2);
    assertValidRequests(server.requests.slice(before));
  });

  it('continues a grandchild at its next request, and the journal answers a sibling that finished', async () => {
    const leaf = fakeTool('leaf', () => ({ response: 'leaf ok' }));
    const sibling = fakeTool('sibling', () => ({ response: 'sibling ok' }));
    const inner = defineAgent({ name: 'inner', description: 'I', instructions: 'I.', tools: [leaf] });
    const outer = defineAgent({ name: 'outer', description: 'O', instructions: 'O.', tools: [inner] });
    server.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'outer', arguments: { task: 't' } },
        { id: 'call_2', name: 'sibling' },
      ],
    });
    server.enqueue({ toolCalls: [{ id: 'o1', name: 'inner', arguments: { task: 'u' } }] });
    server.enqueue({ toolCalls: [{ id: 'l1', name: 'leaf' }] });
    server.enqueue({ text: 'inner done' });
    server.enqueue({ text: 'outer done' });
    server.enqueue({ text: 'root done' });
    const saved: RunState[] = [];
    // What a durable journal held at each checkpoint: the sibling ran beside the agents and finished first.
    const entries = new Map<string, ToolExecuteResult>();
    const held: Map<string, ToolExecuteResult>[] = [];
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [outer, sibling],
      runId: 'root',
      journal: journalOver(entries),
      toolConcurrency: 2,
      onCheckpoint: (state) => {
        saved.push(roundTrip(state));
        held.push(new Map(entries));
      },
    });
    expect([...held[0].keys()].sort()).toEqual(['root:call_1/o1/l1', 'root:call_2']);
    // The grandchild's turn, the child's turn, then the root's turn and its end.
    expect(saved.map((state) => Object.keys(state.children ?? {}))).toEqual([['call_1'], ['call_1'], [], []]);
    const deep = saved[0].children?.call_1.children?.o1;
    expect(toolMessages(deep?.messages)).toEqual([{ role: 'tool', tool_call_id: 'l1', content: 'leaf ok' }]);
    expect(saved[0].children?.call_1.messages.at(-1)).toEqual(
      expect.objectContaining({ tool_calls: [expect.objectContaining({ id: 'o1' })] }),
    );

    server.enqueue({ text: 'inner again' });
    server.enqueue({ text: 'outer again' });
    server.enqueue({ text: 'root again' });
    const before = server.requests.length;
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [outer, sibling],
      journal: journalOver(held[0]),
      toolConcurrency: 2,
      resumeFrom: saved[0],
    });
    expect(resumed.stopReason).toBe('completed');
    expect(leaf.calls).toHaveLength(1);
    expect(sibling.calls).toHaveLength(1);
    const system = (i: number) => messagesOf(server.requests[before + i].body)[0].content;
    expect([system(0), system(1)]).toEqual(['I.', 'O.']);
    expect(toolMessages(resumed.state.messages)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'outer again' },
      { role: 'tool', tool_call_id: 'call_2', content: 'sibling ok' },
    ]);
    assertValidRequests(server.requests.slice(before));
  });

  it('saves the turns a resumed child makes after its approval, and goes on from them without the decision', async () => {
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const look = fakeTool('look', () => ({ response: 'looked' }));
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay, look] });
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'cashier', arguments: { task: 'pay' } }] });
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'pay' }] });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [cashier],
      runId: 'root',
    });
    expect(paused.stopReason).toBe('interactive');

    server.enqueue({ toolCalls: [{ id: 'c2', name: 'look' }] });
    server.enqueue({ text: 'cashier done' });
    server.enqueue({ text: 'root done' });
    const saved: RunState[] = [];
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [cashier],
      resumeFrom: roundTrip(paused.state),
      decisions: { 'call_1/c1': { approve: true } },
      onCheckpoint: (state) => {
        saved.push(roundTrip(state));
      },
    });
    // The child's resumed turn (pay), its next turn (look), then the root's turn and its end.
    expect(saved.map((state) => Object.keys(state.children ?? {}))).toEqual([['call_1'], ['call_1'], [], []]);
    expect(saved[1].pending).toEqual([]);
    expect(toolMessages(saved[1].children?.call_1.messages).map((m) => m.content)).toEqual(['paid', 'looked']);
    expect(pay.calls).toHaveLength(1);

    server.enqueue({ text: 'cashier again' });
    server.enqueue({ text: 'root again' });
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [cashier],
      resumeFrom: saved[1],
    });
    expect(resumed.stopReason).toBe('completed');
    expect(pay.calls).toHaveLength(1);
    expect(look.calls).toHaveLength(1);
    expect(toolMessages(resumed.state.messages)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'cashier again' },
    ]);
  });
  it('saves an agent that paused while its sibling ran as paused: a resume pauses it again without a request, and its decision goes on from there', async () => {
    let payAsked!: () => void;
    const asked = new Promise<void>((resolve) => (payAsked = resolve));
    const pay = fakeTool('pay', () => ({ response: 'paid' }), {
      needsApproval: () => {
        payAsked();
        return true;
      },
    });
    // The lookup ends after the cashier's pause has reached the root (no I/O is left in it, only promise jobs).
    const lookup = fakeTool('lookup', async () => {
      await asked;
      await new Promise((resolve) => setImmediate(resolve));
      return { response: 'found' };
    });
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay] });
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    // Each run's model by its system message: the two agents ask at once.
    const asks: string[] = [];
    const reply = (request: { body: unknown }) => {
      const messages = messagesOf(request.body);
      const who = messages[0].role === 'system' ? String(messages[0].content) : 'root';
      asks.push(who);
      const answered = messages.at(-1)?.role === 'tool';
      if (who === 'Pay.') return answered ? { text: 'cashier done' } : { toolCalls: [{ id: 'p1', name: 'pay' }] };
      if (who === 'R.') return answered ? { text: 'research done' } : { toolCalls: [{ id: 'l1', name: 'lookup' }] };
      if (answered) return { text: 'root done' };
      return {
        toolCalls: [
          { id: 'call_c', name: 'cashier', arguments: { task: 'pay' } },
          { id: 'call_r', name: 'research', arguments: { task: 'look' } },
        ],
      };
    };
    const session = server.session(Array.from({ length: 20 }, () => reply));
    const saved: RunState[] = [];
    const props = {
      client: session.client(),
      tools: [cashier, research],
      toolConcurrency: 2,
      onCheckpoint: (state: RunState) => {
        saved.push(roundTrip(state));
      },
    };
    const first = await runAgentLoop({ ...props, body: { model: 'm', messages: [user('go')] }, runId: 'root' });
    expect(first.stopReason).toBe('interactive');
    expect(asks).toEqual(['root', 'Pay.', 'R.', 'R.']);
    // Research's turn, saved while the cashier waited: both ride in children, the cashier at its pause.
    const inTurn = saved[0];
    expect(Object.keys(inTurn.children ?? {}).sort()).toEqual(['call_c', 'call_r']);
    expect(inTurn.children?.call_c.pending.map((entry) => entry.call.id)).toEqual(['p1']);

    // The process died there: the resume goes on with research, and the cashier pauses again without asking.
    asks.length = 0;
    const resumed = await runAgentLoop({ ...props, body: { model: 'm', messages: [] }, resumeFrom: inTurn });
    expect([resumed.stopReason, resumed.error?.message]).toEqual(['interactive', undefined]);
    expect(asks).toEqual(['R.']);
    expect(lookup.calls).toHaveLength(1);
    expect(resumed.state.pending.map((entry) => [entry.agentPath, entry.call.id])).toEqual([[['call_c'], 'p1']]);

    asks.length = 0;
    const done = await runAgentLoop({
      ...props,
      body: { model: 'm', messages: [] },
      resumeFrom: roundTrip(resumed.state),
      decisions: { 'call_c/p1': { approve: true } },
    });
    expect(done.stopReason).toBe('completed');
    expect(asks).toEqual(['Pay.', 'root']);
    expect(pay.calls).toHaveLength(1);
    expect(toolMessages(done.state.messages)).toEqual([
      { role: 'tool', tool_call_id: 'call_c', content: 'cashier done' },
      { role: 'tool', tool_call_id: 'call_r', content: 'research done' },
    ]);
    assertValidRequests(session.requests);
  });
  it('keeps a paused grandchild paused in its parent saved under way, and the decision by its whole path reaches it', async () => {
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const lookup = fakeTool('lookup', () => ({ response: 'found' }));
    const cashier = defineAgent({ name: 'cashier', description: 'Pays', instructions: 'Pay.', tools: [pay] });
    const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
    const support = defineAgent({ name: 'support', description: 'S', instructions: 'S.', tools: [cashier, research] });
    const asks: string[] = [];
    const reply = (request: { body: unknown }) => {
      const messages = messagesOf(request.body);
      const who = messages[0].role === 'system' ? String(messages[0].content) : 'root';
      asks.push(who);
      const answered = messages.at(-1)?.role === 'tool';
      if (who === 'Pay.') return answered ? { text: 'cashier done' } : { toolCalls: [{ id: 'p1', name: 'pay' }] };
      if (who === 'R.') return answered ? { text: 'research done' } : { toolCalls: [{ id: 'l1', name: 'lookup' }] };
      if (who === 'S.')
        return answered
          ? { text: 'support done' }
          : {
              toolCalls: [
                { id: 's_c', name: 'cashier', arguments: { task: 'pay' } },
                { id: 's_r', name: 'research', arguments: { task: 'look' } },
              ],
            };
      return answered
        ? { text: 'root done' }
        : { toolCalls: [{ id: 'call_s', name: 'support', arguments: { task: 't' } }] };
    };
    const session = server.session(Array.from({ length: 20 }, () => reply));
    const saved: RunState[] = [];
    const props = {
      client: session.client(),
      tools: [support],
      onCheckpoint: (state: RunState) => {
        saved.push(roundTrip(state));
      },
    };
    const first = await runAgentLoop({ ...props, body: { model: 'm', messages: [user('go')] }, runId: 'root' });
    expect(first.stopReason).toBe('interactive');
    expect(asks).toEqual(['root', 'S.', 'Pay.', 'R.', 'R.']);
    // Research's turn, saved while the cashier (its sibling under support) waited.
    const inTurn = saved[0];
    expect(inTurn.pending.map((entry) => [entry.agentPath, entry.call.id])).toEqual([[['call_s', 's_c'], 'p1']]);
    expect(Object.keys(inTurn.children?.call_s.children ?? {}).sort()).toEqual(['s_c', 's_r']);

    // Resumed there, the cashier is not asked again; a decision given with the resume reaches it by its whole path.
    asks.length = 0;
    const done = await runAgentLoop({
      ...props,
      body: { model: 'm', messages: [] },
      resumeFrom: inTurn,
      decisions: { 'call_s/s_c/p1': { approve: true } },
    });
    expect(done.stopReason).toBe('completed');
    expect(asks).toEqual(['Pay.', 'R.', 'S.', 'root']);
    expect(pay.calls).toHaveLength(1);
    expect(lookup.calls).toHaveLength(1);
    expect(done.text).toBe('root done');
    assertValidRequests(session.requests);
  });
});
