import { runAgentLoop } from '../../src/run-agent-loop';
import { createMemoryJournal, journalKey, MemoryJournal, type ToolJournal } from '../../src/toolCall/journal';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

describe('tool journal', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('MemoryJournal stores copies under the given key', async () => {
    const journal = createMemoryJournal();
    expect(journal).toBeInstanceOf(MemoryJournal);
    const result = { response: 'paid', usages: [{ moduleName: 'pay' }] };
    await journal.set('r:1', result);
    result.response = 'changed later';
    expect(await journal.get('r:1')).toEqual({ response: 'paid', usages: [{ moduleName: 'pay' }] });
    expect(await journal.get('r:2')).toBeUndefined();
    expect(journal.size).toBe(1);
    expect(journalKey('run', 'call_1')).toBe('run:call_1');
  });

  it('never executes a journaled call again: a rerun of the same turn reuses the recorded result', async () => {
    const journal = createMemoryJournal();
    let charges = 0;
    const pay = fakeTool('pay', ({ idempotencyKey }) => ({ response: `charge #${++charges} (${idempotencyKey})` }));
    const turn = { toolCalls: [{ id: 'p1', name: 'pay' }] };
    server.enqueue(turn, { text: 'ok' }, turn, { text: 'ok' });
    const props = { body: { model: 'm', messages: [user('pay')] }, tools: [pay], runId: 'order-7', journal };
    await runAgentLoop({ client: server.client(), ...props });
    // The same run retried from its start (say, a worker restarted before saving): the model repeats the call.
    await runAgentLoop({ client: server.client(), ...props });
    expect(charges).toBe(1);
    expect(pay.calls).toHaveLength(1);
    expect(await journal.get('order-7:p1')).toEqual({ response: 'charge #1 (order-7:p1)', outcome: 'ok' });
    expect(server.requests[3].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'p1',
      content: 'charge #1 (order-7:p1)',
    });
    assertValidRequests(server.requests);
  });

  it('ends the run with the error when the journal cannot record, after answering the turn', async () => {
    const failure = new Error('journal is full');
    const journal: ToolJournal = { get: async () => undefined, set: () => Promise.reject(failure) };
    const tool = fakeTool('t', () => ({ response: 'ran' }));
    server.enqueue({ toolCalls: [{ id: 'c1', name: 't' }] });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool],
      journal,
    });
    expect(result.stopReason).toBe('error');
    expect(result.error).toBe(failure);
    expect(server.requests).toHaveLength(1);
    expect(result.state.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'ran' });

    // A journal that cannot be read does not run the call (it may already have run).
    const unreadable: ToolJournal = { get: () => Promise.reject(failure), set: async () => undefined };
    server.enqueue({ toolCalls: [{ id: 'c2', name: 't' }] });
    const blind = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool],
      journal: unreadable,
    });
    expect(tool.calls).toHaveLength(1);
    expect(blind.stopReason).toBe('error');
    expect(blind.state.messages.at(-1)).toEqual(
      expect.objectContaining({ tool_call_id: 'c2', content: expect.stringContaining('was not run') }),
    );
  });
});
