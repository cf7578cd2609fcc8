import { runAgentLoop } from '../../src/run-agent-loop';
import type { CompressContextEvent, ToolCompressEvent } from '../../src/agentCall/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

describe('runAgentLoop compression', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('summarises the history once it passes the threshold, keeping recent turns and tool pairs intact', async () => {
    const history = Array.from({ length: 12 }, (_, i) => [
      user(`question ${i} ${'x'.repeat(400)}`),
      { role: 'assistant' as const, content: `answer ${i} ${'y'.repeat(400)}` },
    ]).flat();
    server.enqueue(
      (req) => {
        expect(req.body.stream).toBe(false);
        expect(JSON.stringify(req.body.messages)).toContain('question 0');
        return {
          text: 'The user asked twelve questions about x.',
          usage: { prompt_tokens: 900, completion_tokens: 12 },
        };
      },
      { text: 'final answer' },
    );
    const events: CompressContextEvent[] = [];
    const pushed: string[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: {
        model: 'main-model',
        messages: [{ role: 'system', content: 'Be brief.' }, ...history, user('latest question')],
      },
      tools: [],
      compression: { maxContext: 2000, reservedTokens: 0, model: 'small-model' },
      onAfterCompressContext: (e) => events.push(e),
      usagePush: (u) => pushed.push(...u.map((x) => `${x.moduleName}:${x.model}`)),
    });

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ modelName: 'small-model', inputTokens: 900, outputTokens: 12 });
    expect(events[0].afterTokens).toBeLessThan(events[0].beforeTokens);
    expect(pushed).toEqual(['compress_context:small-model', 'agent_call:main-model']);
    expect(server.requests[0].body.model).toBe('small-model');

    const sent = server.requests[1].body.messages;
    expect(sent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent[1]).toEqual(user('[Summary of the earlier conversation]\nThe user asked twelve questions about x.'));
    expect(sent.at(-1)).toEqual(user('latest question'));
    expect(sent.length).toBeLessThan(history.length);
    expect(result.stopReason).toBe('completed');
  });

  it('does not compress a history under the threshold', async () => {
    server.enqueue({ text: 'ok' });
    const onAfterCompressContext = jest.fn();
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('short')] },
      tools: [],
      compression: { maxContext: 100_000 },
      onAfterCompressContext,
    });
    expect(onAfterCompressContext).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it('shortens a tool response over budget with the model and reports it; onAfterToolCall still sees the raw text', async () => {
    const huge = `${'row,'.repeat(3000)}END`;
    server.enqueue(
      { toolCalls: [{ id: 'q1', name: 'query', arguments: {} }] },
      (req) => {
        expect(req.body.stream).toBe(false);
        expect(req.body.messages[0].content).toMatch(/Shorten the tool output/);
        return { text: '3000 rows, all "row"', usage: { prompt_tokens: 50, completion_tokens: 6 } };
      },
      { text: 'done' },
    );
    const compressed: ToolCompressEvent[] = [];
    const raw: string[] = [];
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('count rows')] },
      tools: [fakeTool('query', () => ({ response: huge }))],
      compression: { maxContext: 4000 },
      onToolCompress: (e) => compressed.push(e),
      onAfterToolCall: ({ response }) => raw.push(response),
    });
    expect(raw).toEqual([huge]);
    expect(compressed).toHaveLength(1);
    expect(compressed[0]).toMatchObject({
      response: '3000 rows, all "row"',
      originalResponse: huge,
      usage: { moduleName: 'compress_tool_response', inputTokens: 50, outputTokens: 6 },
    });
    expect(compressed[0].call.id).toBe('q1');
    expect(server.requests[2].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'q1',
      content: '3000 rows, all "row"',
    });
  });

  it('caps tool responses at maxToolResponseTokens by keeping head and tail, without a model call', async () => {
    const long = `HEAD ${'middle '.repeat(2000)} TAIL`;
    server.enqueue({ toolCalls: [{ id: 'r1', name: 'read', arguments: {} }] }, { text: 'ok' });
    const onToolCompress = jest.fn();
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('read it')] },
      tools: [fakeTool('read', () => ({ response: long }))],
      maxToolResponseTokens: 100,
      onToolCompress,
    });
    expect(server.requests).toHaveLength(2);
    const sent = server.requests[1].body.messages.at(-1)!.content as string;
    expect(sent.startsWith('HEAD ')).toBe(true);
    expect(sent.endsWith(' TAIL')).toBe(true);
    expect(sent).toMatch(/\[\d+ characters truncated\]/);
    expect(sent.length).toBeLessThanOrEqual(300);
    expect(onToolCompress).toHaveBeenCalledWith(expect.objectContaining({ originalResponse: long, response: sent }));
  });
});
