/**
 * A turn cut short (`length` or `content_filter`) runs none of its tool calls: each is answered `skipped` with a
 * message naming the reason, and the run goes on. Finish reasons mean the same on both wires (this suite runs on
 * both, and on both stream parsers).
 */
import { runAgentLoop } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('a turn cut short', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  describe.each([true, false])('stream: %s', (stream) => {
    it.each([
      ['length', 'output token limit'],
      ['content_filter', 'content filter'],
    ] as const)('by %s runs none of its calls, each answered skipped naming why', async (finishReason, named) => {
      server.enqueue(
        {
          toolCalls: [
            { id: 'call_pay', name: 'pay', arguments: '{}' },
            { id: 'call_ping', name: 'ping', arguments: '' },
          ],
          finishReason,
        },
        { text: 'Stopped.' },
      );
      const pay = fakeTool('pay', () => ({ response: 'paid' }));
      const ping = fakeTool('ping', () => ({ response: 'pong' }));
      const outcomes: unknown[] = [];
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'gpt-5.1', stream, messages: [user('Pay.')] },
        tools: [pay, ping],
        onAfterToolCall: ({ outcome }) => outcomes.push(outcome),
      });
      expect(pay.calls).toHaveLength(0);
      expect(ping.calls).toHaveLength(0);
      expect(outcomes).toEqual(['skipped', 'skipped']);
      expect(result.stopReason).toBe('completed');
      expect(result.text).toBe('Stopped.');
      const tools = server.requests[1].body.messages.filter((m) => m.role === 'tool');
      expect(tools.map((m) => m.tool_call_id)).toEqual(['call_pay', 'call_ping']);
      for (const message of tools) expect(message.content).toContain(named);
    });

    it('content_filter stays content_filter', async () => {
      server.enqueue({ text: 'Partial', finishReason: 'content_filter' });
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'gpt-5.1', stream, messages: [user('q')] },
        tools: [],
      });
      expect(result.finish_reason).toBe('content_filter');
      expect(result.text).toBe('Partial');
    });
  });
});
