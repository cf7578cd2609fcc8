import { runAgentLoop } from '../../src';
import { createRunRecorder, exportRunAsTest } from '../../src/devtools';
import { startScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { runJestFile } from './helpers';

describe('exporting a run as a Jest test', () => {
  it('writes a test that replays the run and passes, and fails when the replay differs', async () => {
    const server = await startScriptedServer();
    try {
      const lookup = fakeTool('lookup', ({ call }) => ({ response: `found ${call.function.arguments}` }));
      const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
      const refund = fakeTool('refund', () => ({ response: 'refunded' }), { needsApproval: true });
      const recorder = createRunRecorder();
      server.enqueue(
        { reasoning: 'thinking', toolCalls: [{ id: 'l1', name: 'lookup', arguments: { q: '`${x}` */ </script>' } }] },
        {
          toolCalls: [
            { id: 'p1', name: 'pay', arguments: { amount: 5 } },
            { id: 'r1', name: 'refund', arguments: {} },
          ],
        },
        { text: 'Paid, not refunded: "quotes" and \\ backslashes' },
      );
      const props = {
        client: server.client(),
        body: { model: 'gpt-test', messages: [user('pay and refund')] },
        tools: [lookup, pay, refund],
      };
      let result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
      expect(result.stopReason).toBe('interactive');
      const decisions = { p1: { approve: true as const }, r1: { approve: false as const, reason: 'no refunds' } };
      const resume = { ...props, resumeFrom: result.state, decisions };
      result = await runAgentLoop({ ...resume, ...recorder.hooks(resume) });
      recorder.finish(result);
      expect(result.stopReason).toBe('completed');

      const recorded = (await recorder.source.recorded(result.state.runId))!;
      const file = exportRunAsTest(recorded);
      expect(file).toContain("from 'agentcall/testing'");
      const passing = await runJestFile(file, 'replay.test.ts');
      expect({ code: passing.code, output: passing.code ? passing.output : '' }).toEqual({ code: 0, output: '' });
      expect(passing.output).toMatch(/1 passed/);

      // The same test over a recording whose model called the tool with other arguments must fail.
      const changed = exportRunAsTest({
        ...recorded,
        turns: recorded.turns.map((turn, i) =>
          i === 0 ? { ...turn, toolCalls: [{ ...turn.toolCalls[0], arguments: '{"q":"other"}' }] } : turn,
        ),
      });
      const tampered = changed.replace(
        /(expect\(calls\)\.toEqual\(\[[\s\S]*?"arguments": )"[^"\n]*(?:\\"[^"\n]*)*"/,
        '$1"{}"',
      );
      expect(tampered).not.toBe(changed);
      const failing = await runJestFile(tampered, 'replay.test.ts');
      expect(failing.code).not.toBe(0);
      expect(failing.output).toMatch(/1 failed/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
