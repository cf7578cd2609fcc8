import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import { signRunState } from '../../src/agentCall/state/run-state-signature';
import { DEFAULT_MAX_ARGS_DEPTH, DEFAULT_MAX_ARGS_LENGTH } from '../../src/constants';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { ToolApprovalContext, ToolParseResult } from '../../src/toolCall/type';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const secret = 'a long random server-side secret';

describe('approvals parse once, with the argument caps, and keep a state that serialises', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const run = (tools: Parameters<typeof runAgentLoop>[0]['tools'], extra: object = {}) =>
    runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools, ...extra });

  it("reads a gated hand-written tool's arguments with runTool's caps before anyone is asked", async () => {
    const asked: unknown[] = [];
    const send = fakeTool('send', () => ({ response: 'sent' }), {
      needsApproval: ({ params }) => {
        asked.push(params);
        return true;
      },
    });
    const long = JSON.stringify({ text: 'x'.repeat(DEFAULT_MAX_ARGS_LENGTH) });
    const deep = '['.repeat(DEFAULT_MAX_ARGS_DEPTH + 1) + ']'.repeat(DEFAULT_MAX_ARGS_DEPTH + 1);
    server.enqueue(
      {
        toolCalls: [
          { id: 'long', name: 'send', arguments: long },
          { id: 'deep', name: 'send', arguments: deep },
        ],
      },
      { text: 'done' },
    );
    const result = await run([send]);

    expect(result.stopReason).toBe('completed');
    expect(asked).toEqual([]);
    expect(send.calls).toHaveLength(0);
    const answers = result.state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(answers).toEqual([
      expect.stringMatching(/^Invalid arguments: /),
      expect.stringMatching(/^Invalid arguments: /),
    ]);
  });

  it('answers a gated call whose params cannot be kept, and the state still serialises (signed too)', async () => {
    const cyclic = fakeTool('cyclic', () => ({ response: 'ran' }), {
      needsApproval: true,
      parseParams: () => {
        const data: Record<string, unknown> = { n: 1 };
        data.self = data;
        return { success: true, data };
      },
    });
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'cyclic' }] }, { text: 'done' });
    const result = await run([cyclic], { stateSecret: secret });

    expect(result.stopReason).toBe('completed');
    expect(() => JSON.stringify(result.state)).not.toThrow();
    expect(result.state.pending).toEqual([]);
    expect(cyclic.calls).toHaveLength(0);
    expect(result.state.messages.find((m) => m.role === 'tool')?.content).toMatch(
      /^Tool error: cyclic needs approval, and its arguments cannot be kept/,
    );
  });

  describe('one parse per call', () => {
    const payTool = () => {
      const parses: string[] = [];
      const seen: ToolApprovalContext<{ amount: number }>[] = [];
      const pay = fakeTool<{ amount: number }>('pay', ({ params }) => ({ response: `paid ${params.amount}` }), {
        parseParams: (raw): ToolParseResult<{ amount: number }> => {
          parses.push(raw);
          return { success: true, data: JSON.parse(raw) as { amount: number } };
        },
        needsApproval: (ctx) => {
          seen.push(ctx);
          return ctx.params.amount > 100;
        },
      });
      return { pay, parses, seen };
    };

    it('hands the predicate and the run the same parsed params', async () => {
      const t = payTool();
      server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 5 } }] }, { text: 'done' });
      await run([t.pay]);

      expect(t.parses).toHaveLength(1);
      expect(t.pay.calls[0].params).toBe(t.seen[0].params);
    });

    it('runs a paused call on resume with the params kept in state.pending, not parsed again', async () => {
      const t = payTool();
      server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 500 } }] });
      const paused = await run([t.pay], { stateSecret: secret });
      expect(paused.state.pending).toEqual([expect.objectContaining({ params: { amount: 500 } })]);

      // The params are what runs: a state whose params differ (signed with the secret) runs with those.
      const edited = roundTrip(paused.state) as RunState & { pending: { params: unknown }[] };
      edited.pending[0].params = { amount: 499 };
      server.enqueue({ text: 'done' });
      const resumed = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [] },
        tools: [t.pay],
        stateSecret: secret,
        resumeFrom: signRunState(edited, secret),
        decisions: { p1: { approve: true } },
      });

      expect(resumed.stopReason).toBe('completed');
      expect(t.parses).toHaveLength(1);
      expect(t.pay.calls.map((c) => c.params)).toEqual([{ amount: 499 }]);
    });

    it('refuses a state whose kept params are not JSON data within the caps, and runs nothing', async () => {
      const t = payTool();
      server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 500 } }] });
      const paused = await run([t.pay]);
      const forged = roundTrip(paused.state) as RunState & { pending: { params: unknown }[] };
      let deep: unknown = 1;
      for (let i = 0; i <= DEFAULT_MAX_ARGS_DEPTH; i++) deep = [deep];
      forged.pending[0].params = deep;
      const resumed = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [] },
        tools: [t.pay],
        resumeFrom: forged,
        decisions: { p1: { approve: true } },
      });

      expect(resumed.stopReason).toBe('error');
      expect(String(resumed.error)).toContain('pending[0].params');
      expect(t.pay.calls).toHaveLength(0);
    });
  });
});
