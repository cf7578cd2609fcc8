import { approveAll, runMaster } from '../../samples/agents/master-agent';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';

describe('samples/agents/master-agent', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('runs a master agent over two sub-agents, pausing for the refund and resuming with a path-keyed approval', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'call_1', name: 'research', arguments: { task: 'find offers for shoes' } },
        { id: 'call_2', name: 'cashier', arguments: { task: 'refund order 42' } },
      ],
    });
    server.enqueue({ toolCalls: [{ id: 's1', name: 'search', arguments: { query: 'shoes' } }] });
    server.enqueue({ text: 'Found 3 offers.' });
    server.enqueue({ toolCalls: [{ id: 'r1', name: 'refund', arguments: { orderId: '42' } }] });
    const paused = await runMaster(server.client(), 'Find shoes and refund order 42');
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.pending.map((p) => [p.agentPath, p.call.function.name])).toEqual([[['call_2'], 'refund']]);

    server.enqueue({ text: 'Refunded order 42.' });
    server.enqueue({ text: 'Here are 3 offers; order 42 is refunded.' });
    const state = JSON.parse(JSON.stringify(paused.state)) as typeof paused.state;
    const done = await runMaster(server.client(), '', { resumeFrom: state, decisions: approveAll(state) });
    expect(done.stopReason).toBe('completed');
    expect(done.text).toBe('Here are 3 offers; order 42 is refunded.');
    const cashierTurn = server.requests[4].body.messages as { role: string; content?: string }[];
    expect(cashierTurn.at(-1)?.content).toBe('refunded 42 (support-1:call_2/r1)');
    expect(paused.usages.map((u) => u.agentPath?.join('/') ?? '')).toEqual(['', 'call_1', 'call_1', 'call_2']);
    expect(done.usages.map((u) => u.agentPath?.join('/') ?? '')).toEqual(['call_2', '']);
  });
});
