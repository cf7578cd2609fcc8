/**
 * Custom tools (free-form text input, optionally held to a grammar) on either wire (this suite runs on both, and on
 * both stream parsers), streamed or not: the tool goes out in its wire's shape, its call runs with the raw input as
 * the model wrote it (no JSON read), and the call goes back into the history in its own shape, answered once.
 */
import fc from 'fast-check';
import type { ChatCompletionCustomTool } from 'openai/resources/chat/completions';
import { runAgentLoop, type ToolDefinition, type ToolExecuteContext } from '../../src';
import { DEFAULT_MAX_ARGS_LENGTH } from '../../src/constants';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { onWire } from '../helpers/wire-under-test';

const GRAMMAR = { definition: 'start: "SELECT " /[a-z_, ]+/ " FROM " /[a-z_]+/', syntax: 'lark' } as const;

/** A custom tool that records what it was given and answers with the input's length. */
function sqlTool(
  extra: Partial<ToolDefinition<string, ChatCompletionCustomTool>> = {},
): ToolDefinition<string, ChatCompletionCustomTool> & { seen: ToolExecuteContext<string>[] } {
  const seen: ToolExecuteContext<string>[] = [];
  return {
    schema: {
      type: 'custom',
      custom: { name: 'run_sql', description: 'Run one SQL query', format: { type: 'grammar', grammar: GRAMMAR } },
    },
    execute: async (ctx) => {
      seen.push(ctx);
      return { response: `ran ${ctx.params.length} characters` };
    },
    ...extra,
    seen,
  };
}

/** The Responses input items of a request of that wire (its raw body), by type. */
function inputItems(request: RecordedRequest, type: string): Record<string, unknown>[] {
  if (request.wire !== 'responses') return [];
  const input = (request.rawBody as { input?: unknown }).input;
  return (Array.isArray(input) ? input : []).filter((item: { type?: unknown }) => item?.type === type);
}

describe('custom tools run with their raw input and go back in their own shape', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer({ chunkSize: 4 });
  });
  afterEach(() => server.close());

  // Not JSON, quotes and a newline: what a JSON read would change or refuse.
  const INPUT = `SELECT name, "note" FROM users\n-- {not json`;

  it.each([true, false])('offered, called, answered, carried back (stream: %s)', async (stream) => {
    server.enqueue(
      { toolCalls: [{ id: 'call_sql', type: 'custom', name: 'run_sql', input: INPUT }] },
      { text: 'done' },
    );
    const tool = sqlTool();
    const opened: string[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'gpt-5.1', stream, messages: [user('Who is there?')] },
      tools: [tool],
      onToolCall: ({ call }) => opened.push(call.function.name),
    });
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('done');
    expect(opened).toEqual(['run_sql']);
    expect(tool.seen.map((ctx) => ctx.params)).toEqual([INPUT]);
    expect(tool.seen[0].call).toEqual({
      id: 'call_sql',
      type: 'function',
      function: { name: 'run_sql', arguments: INPUT },
    });

    const [first, second] = server.requests;
    // The tool goes out as its schema on chat; on Responses as { type: 'custom', name, description, format }.
    expect(first.body.tools).toEqual([tool.schema]);
    if (first.wire === 'responses')
      expect((first.rawBody as { tools?: unknown }).tools).toEqual([
        { type: 'custom', name: 'run_sql', description: 'Run one SQL query', format: { type: 'grammar', ...GRAMMAR } },
      ]);

    const call = { id: 'call_sql', type: 'custom', custom: { name: 'run_sql', input: INPUT } };
    const answer = { role: 'tool', tool_call_id: 'call_sql', content: `ran ${INPUT.length} characters` };
    expect(second.body.messages.slice(1)).toEqual([{ role: 'assistant', content: null, tool_calls: [call] }, answer]);
    expect(result.completeMessages.slice(1, 3)).toEqual([
      expect.objectContaining({ role: 'assistant', tool_calls: [call] }),
      answer,
    ]);
    expect(inputItems(second, 'custom_tool_call')).toEqual(
      onWire({
        chat: [],
        responses: [{ type: 'custom_tool_call', call_id: 'call_sql', name: 'run_sql', input: INPUT }],
      }),
    );
    expect(inputItems(second, 'custom_tool_call_output')).toEqual(
      onWire({
        chat: [],
        responses: [{ type: 'custom_tool_call_output', call_id: 'call_sql', output: answer.content }],
      }),
    );
    expect(inputItems(second, 'function_call')).toEqual([]);
    expect(inputItems(second, 'function_call_output')).toEqual([]);
  });

  it('an empty input stays empty text, not the `{}` of empty JSON arguments', async () => {
    server.enqueue({ toolCalls: [{ type: 'custom', name: 'run_sql', input: '' }] }, { text: 'done' });
    const tool = sqlTool();
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools: [tool] });
    expect(tool.seen.map((ctx) => ctx.params)).toEqual(['']);
    expect(server.requests[1].body.messages[1]).toMatchObject({ tool_calls: [{ custom: { input: '' } }] });
  });

  it("parseParams gets the raw input and its result is the tool's params", async () => {
    server.enqueue({ toolCalls: [{ type: 'custom', name: 'run_sql', input: '{"a": 1}' }] }, { text: 'done' });
    const raws: string[] = [];
    const tool = sqlTool({
      parseParams: (raw) => {
        raws.push(raw);
        return { success: true, data: raw.toUpperCase() };
      },
    });
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools: [tool] });
    expect(raws).toEqual(['{"a": 1}']);
    expect(tool.seen.map((ctx) => ctx.params)).toEqual(['{"A": 1}']);
  });

  it('an input past the arguments size cap is refused before the tool runs', async () => {
    const long = 'x'.repeat(DEFAULT_MAX_ARGS_LENGTH + 1);
    server.enqueue({ toolCalls: [{ type: 'custom', name: 'run_sql', input: long }] }, { text: 'done' });
    const tool = sqlTool();
    const outcomes: string[] = [];
    await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool],
      onAfterToolCall: ({ outcome }) => outcomes.push(outcome),
    });
    expect(tool.seen).toEqual([]);
    expect(outcomes).toEqual(['invalid_arguments']);
    const answer = server.requests[1].body.messages.at(-1);
    expect(answer).toMatchObject({ role: 'tool', content: expect.stringMatching(/^Invalid arguments: .*exceeds/) });
  });

  it('runs beside function calls of the same turn, each answered once, in call order', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'f1', name: 'get_time', arguments: { zone: 'UTC' } },
          { id: 'c1', type: 'custom', name: 'run_sql', input: 'SELECT 1' },
          { id: 'f2', name: 'get_time', arguments: {} },
        ],
      },
      { text: 'done' },
    );
    const tool = sqlTool();
    const time = fakeTool('get_time', () => ({ response: '12:00' }));
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools: [time, tool] });
    expect(tool.seen.map((ctx) => ctx.params)).toEqual(['SELECT 1']);
    expect(time.calls.map((ctx) => ctx.params)).toEqual([{ zone: 'UTC' }, {}]);
    const [, assistant, ...answers] = server.requests[1].body.messages;
    expect(assistant).toMatchObject({
      tool_calls: [
        { id: 'f1', type: 'function' },
        { id: 'c1', type: 'custom' },
        { id: 'f2', type: 'function' },
      ],
    });
    expect(answers.map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual(['f1', 'c1', 'f2']);
    expect(inputItems(server.requests[1], 'custom_tool_call_output').map((item) => item.call_id)).toEqual(
      onWire({ chat: [], responses: ['c1'] }),
    );
    expect(inputItems(server.requests[1], 'function_call_output').map((item) => item.call_id)).toEqual(
      onWire({ chat: [], responses: ['f1', 'f2'] }),
    );
  });

  it('a call that needs approval pauses with its raw input and runs with it once approved', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', type: 'custom', name: 'run_sql', input: 'DELETE FROM t' }] });
    const tool = sqlTool({ needsApproval: true });
    const paused = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('go')] },
      tools: [tool],
    });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.pending).toEqual([
      {
        kind: 'approval',
        call: { id: 'c1', type: 'function', function: { name: 'run_sql', arguments: 'DELETE FROM t' } },
        params: 'DELETE FROM t',
      },
    ]);
    expect(tool.seen).toEqual([]);

    server.enqueue({ text: 'deleted' });
    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: [tool],
      resumeFrom: JSON.parse(JSON.stringify(paused.state)) as typeof paused.state,
      decisions: { c1: { approve: true } },
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.text).toBe('deleted');
    expect(tool.seen.map((ctx) => ctx.params)).toEqual(['DELETE FROM t']);
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'run_sql', input: 'DELETE FROM t' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ran 13 characters' },
    ]);
  });

  it('any input text reaches the tool and goes back unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.boolean(), async (input, stream) => {
        server.enqueue({ toolCalls: [{ id: 'c1', type: 'custom', name: 'run_sql', input }] }, { text: 'ok' });
        const tool = sqlTool();
        const from = server.requests.length;
        await runAgentLoop({
          client: server.client(),
          body: { model: 'm', stream, messages: [user('go')] },
          tools: [tool],
        });
        expect(tool.seen.map((ctx) => ctx.params)).toEqual([input]);
        expect(server.requests[from + 1].body.messages[1]).toMatchObject({ tool_calls: [{ custom: { input } }] });
      }),
      { numRuns: 30 },
    );
  });
});
