import 'reflect-metadata';
import fc from 'fast-check';
import '../helpers/fast-check-seed';
import { defineAgent, runAgentLoop, type RunState } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

/** What a paused nested state may carry beyond its histories, whatever their length: ids, counters, the pending call. */
const FIXED_OVERHEAD = 1024;

const size = (value: unknown) => JSON.stringify(value).length;

/** Every history in the state, the root's and each agent's at any depth. */
function historiesSize(state: RunState): number {
  let total = size(state.messages);
  for (const child of Object.values(state.children ?? {})) total += historiesSize(child);
  return total;
}

describe('the state of a paused nested run', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('is its histories plus a fixed overhead, however long the histories grow', async () => {
    const overheads: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(2000), { maxLength: 6 }),
        fc.array(fc.nat(2000), { maxLength: 12 }),
        async (rootResults, childResults) => {
          const note = fakeTool<{ i: number }>('note', ({ params }) => ({
            response: 'n'.repeat(rootResults[params.i]),
          }));
          const lookup = fakeTool<{ i: number }>('lookup', ({ params }) => ({
            response: 'l'.repeat(childResults[params.i]),
          }));
          const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
          const cashier = defineAgent({
            name: 'cashier',
            description: 'Looks up, then pays',
            instructions: 'Look up, then pay.',
            tools: [lookup, pay],
          });
          rootResults.forEach((_, i) =>
            server.enqueue({ toolCalls: [{ id: `r${i}`, name: 'note', arguments: { i } }] }),
          );
          server.enqueue({ toolCalls: [{ id: 'call_a', name: 'cashier', arguments: { task: 'pay' } }] });
          childResults.forEach((_, i) =>
            server.enqueue({ toolCalls: [{ id: `c${i}`, name: 'lookup', arguments: { i } }] }),
          );
          server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 5 } }] });
          const result = await runAgentLoop({
            client: server.client(),
            body: { model: 'm', messages: [user('go')] },
            tools: [note, cashier],
            runId: 'root',
          });
          expect(result.stopReason).toBe('interactive');
          expect(result.state.children?.call_a.messages).toHaveLength(4 + 2 * childResults.length);
          overheads.push(size(result.state) - historiesSize(result.state));
        },
      ),
      { numRuns: 30 },
    );
    expect(Math.max(...overheads)).toBeLessThanOrEqual(FIXED_OVERHEAD);
    // Fixed, not merely small: the counters' digits are all that moves from the shortest histories to the longest.
    expect(Math.max(...overheads) - Math.min(...overheads)).toBeLessThanOrEqual(16);
  });
});
