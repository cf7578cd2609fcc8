import 'reflect-metadata';
import { runAgentLoop } from '../../src/run-agent-loop';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { toolsFrom } from '../../src/definitions/tools-from';
import type { ChatCompletionMessageParam } from '../../src/llm/type';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { assertValidHistory, assertValidRequests } from '../helpers/history';
import { fetchRewritingCompletion } from '../helpers/network';
import { fakeTool, user } from '../helpers/tools';

/** Every tool message of a history, as [tool_call_id, content]. */
const toolMessages = (messages: ChatCompletionMessageParam[]) =>
  messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content] as [string, unknown]] : []));

/** Every tool-call id the assistant messages of a history carry, in order. */
const callIds = (messages: ChatCompletionMessageParam[]) =>
  messages.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : []));

describe('model misbehaviour: every call answered once, every request valid for the OpenAI API', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const echo = () => fakeTool('echo', ({ params }) => ({ response: `echo ${JSON.stringify(params)}` }));
  const body = { model: 'm', messages: [user('go')] };

  /** Validate the loop's final history and every request the server saw, then return the final history. */
  const validated = (messages: ChatCompletionMessageParam[]) => {
    assertValidRequests(server.requests);
    assertValidHistory(messages, 'completeMessages');
    return messages;
  };

  it('answers calls to unknown tool names next to a known one, and the model can carry on', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'u1', name: 'rm_rf', arguments: { path: '/' } },
          { id: 'k1', name: 'echo', arguments: { a: 1 } },
          { id: 'u2', name: 'Echo', arguments: {} },
          { id: 'u3', name: 'echo ', arguments: {} },
        ],
      },
      { text: 'done' },
    );
    const tool = echo();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    expect(result.stopReason).toBe('completed');
    expect(tool.calls.map((c) => c.call.id)).toEqual(['k1']);
    expect(toolMessages(validated(server.requests[1].body.messages))).toEqual([
      ['u1', 'Call tool not found: rm_rf'],
      ['k1', 'echo {"a":1}'],
      ['u2', 'Call tool not found: Echo (closest: echo)'],
      ['u3', 'Call tool not found: echo  (closest: echo)'],
    ]);
    validated(result.completeMessages);
  });

  it('gives a repeated call id in one turn a fresh id, so each call keeps exactly one answer', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'dup', name: 'echo', arguments: { n: 1 } },
          { id: 'dup', name: 'echo', arguments: { n: 2 } },
          { id: 'dup', name: 'nope' },
        ],
      },
      { text: 'done' },
    );
    const tool = echo();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    const ids = callIds(validated(result.completeMessages));
    expect(ids[0]).toBe('dup');
    expect(new Set(ids).size).toBe(3);
    // Each tool ran with its own call (and id), and each answer sits under that id.
    expect(tool.calls.map((c) => [c.call.id, c.params])).toEqual([
      ['dup', { n: 1 }],
      [ids[1], { n: 2 }],
    ]);
    expect(toolMessages(result.completeMessages)).toEqual([
      ['dup', 'echo {"n":1}'],
      [ids[1], 'echo {"n":2}'],
      [ids[2], 'Call tool not found: nope'],
    ]);
  });

  it('gives a call id reused from an earlier turn, or from the caller history, a fresh id', async () => {
    const history: ChatCompletionMessageParam[] = [
      user('earlier'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'old', type: 'function', function: { name: 'echo', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'old', content: 'earlier answer' },
      user('go'),
    ];
    server.enqueue(
      { toolCalls: [{ id: 'old', name: 'echo', arguments: { turn: 1 } }] },
      { toolCalls: [{ id: 'call_0', name: 'echo', arguments: { turn: 2 } }] },
      { toolCalls: [{ id: 'call_0', name: 'echo', arguments: { turn: 3 } }] },
      { text: 'done' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: history },
      tools: [echo()],
    });
    const ids = callIds(validated(result.completeMessages));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe('old');
    expect(ids[2]).toBe('call_0');
    expect(
      toolMessages(result.completeMessages)
        .slice(1)
        .map(([, content]) => content),
    ).toEqual(['echo {"turn":1}', 'echo {"turn":2}', 'echo {"turn":3}']);
  });

  it('gives a call the model sent without an id one of its own', async () => {
    server.enqueue({ toolCalls: [{ id: '', name: 'echo', arguments: { a: 1 } }] }, { text: 'done' });
    const result = await runAgentLoop({ client: server.client(), body, tools: [echo()] });
    const [id] = callIds(validated(result.completeMessages));
    expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(toolMessages(result.completeMessages)).toEqual([[id, 'echo {"a":1}']]);
  });

  it('treats empty arguments as {} and sends "{}" back to the API, streamed or not', async () => {
    for (const stream of [true, false]) {
      server.enqueue({ toolCalls: [{ id: `e${stream}`, name: 'echo', argumentChunks: ['', ''] }] }, { text: 'done' });
      const tool = echo();
      const result = await runAgentLoop({ client: server.client(), body: { ...body, stream }, tools: [tool] });
      expect(tool.calls[0].params).toEqual({});
      const assistant = validated(result.completeMessages)[1] as { tool_calls: { function: { arguments: string } }[] };
      expect(assistant.tool_calls[0].function.arguments).toBe('{}');
    }
  });

  it('survives a provider sending arguments: null and tool_calls with a null id', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'x', name: 'echo', arguments: 'ignored' },
          { id: 'y', name: 'echo', arguments: '{"b":2}' },
        ],
      },
      { text: 'done' },
    );
    const client = server.client({
      fetch: fetchRewritingCompletion((completion) => {
        const calls = completion.choices?.[0]?.message?.tool_calls;
        if (calls) {
          calls[0].function.arguments = null;
          calls[1].id = null;
        }
        // The same on the Responses API: function_call items with arguments null and call_id null.
        const items = completion.output?.filter((item: { type: string }) => item.type === 'function_call');
        if (items?.length) {
          items[0].arguments = null;
          items[1].call_id = null;
        }
      }),
    });
    const tool = echo();
    const result = await runAgentLoop({ client, body: { ...body, stream: false }, tools: [tool] });
    expect(result.stopReason).toBe('completed');
    expect(tool.calls.map((c) => c.params)).toEqual([{}, { b: 2 }]);
    const ids = callIds(validated(result.completeMessages));
    expect(ids[0]).toBe('x');
    expect(ids[1]).toEqual(expect.any(String));
  });

  it('passes arguments that are not an object to a hand-written tool as they parsed, and answers each call', async () => {
    const args = ['[1,2]', '42', '"text"', 'null', 'true', 'not json at all', '{"unterminated": ', '{"a":1}{"b":2}'];
    server.enqueue({ toolCalls: args.map((a, i) => ({ id: `n${i}`, name: 'echo', arguments: a })) }, { text: 'done' });
    const tool = echo();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    expect(result.stopReason).toBe('completed');
    expect(tool.calls.map((c) => c.params)).toEqual([[1, 2], 42, 'text', null, true, undefined, undefined, undefined]);
    expect(toolMessages(validated(result.completeMessages))).toHaveLength(args.length);
  });

  it('refuses arguments that are not an object for a decorated tool, telling the model what it sent', async () => {
    class Weather {
      cities: string[] = [];

      @Tool({ description: 'Weather' })
      weather(@Param('city') city: string) {
        this.cities.push(city);
        return `sunny in ${city}`;
      }
    }
    const args = ['[1,2]', '42', '"Paris"', 'null', 'not json at all'];
    server.enqueue(
      {
        toolCalls: [
          ...args.map((a, i) => ({ id: `d${i}`, name: 'weather', arguments: a })),
          { id: 'ok', name: 'weather', arguments: { city: 'Oslo' } },
        ],
      },
      { text: 'done' },
    );
    const instance = new Weather();
    const result = await runAgentLoop({ client: server.client(), body, tools: toolsFrom(instance) });
    expect(instance.cities).toEqual(['Oslo']);
    const header = 'Invalid arguments for tool "weather":\n';
    expect(toolMessages(validated(result.completeMessages))).toEqual([
      ['d0', `${header}the arguments must be a JSON object, not an array`],
      ['d1', `${header}the arguments must be a JSON object, not a number`],
      ['d2', `${header}the arguments must be a JSON object, not a string`],
      ['d3', `${header}the arguments must be a JSON object, not null`],
      ['d4', `${header}not valid JSON: invalid character 'o' at line 1, column 2`],
      ['ok', 'sunny in Oslo'],
    ]);
  });

  it('runs ten tool calls of one turn, sequentially or concurrently, answering them in call order', async () => {
    for (const toolConcurrency of [1, 4]) {
      const calls = Array.from({ length: 10 }, (_, i) => ({
        id: `t${toolConcurrency}_${i}`,
        name: i % 3 === 2 ? 'ghost' : 'echo',
        arguments: { i },
      }));
      server.enqueue({ toolCalls: calls }, { text: 'done' });
      const tool = fakeTool<{ i: number }>('echo', async ({ params }) => {
        // Later calls finish first, so call order can only come from the loop, not from timing.
        await new Promise((resolve) => setTimeout(resolve, (10 - params.i) * 2));
        return { response: `#${params.i}` };
      });
      const result = await runAgentLoop({ client: server.client(), body, tools: [tool], toolConcurrency });
      expect(toolMessages(validated(result.completeMessages))).toEqual(
        calls.map((c, i) => [c.id, c.name === 'ghost' ? 'Call tool not found: ghost' : `#${i}`]),
      );
    }
  });

  it('answers tool calls that arrive with finish_reason "stop" or cut by "length" instead of dropping them', async () => {
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'echo', arguments: { a: 1 } }], finishReason: 'stop' },
      {
        toolCalls: [{ id: 'l1', name: 'echo', arguments: '{"text": "a long argument the model never fin' }],
        finishReason: 'length',
      },
      { text: 'done' },
    );
    const tool = echo();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    expect(result.stopReason).toBe('completed');
    expect(toolMessages(validated(result.completeMessages)).map(([id]) => id)).toEqual(['s1', 'l1']);
  });

  it('bounds a model that never stops calling tools by maxRunAgentTimes (default 20), forcing tool_choice "none" after 5 identical tool-only turns', async () => {
    for (let i = 0; i < 25; i++) server.enqueue({ toolCalls: [{ name: 'echo', arguments: { same: true } }] });
    const tool = echo();
    const result = await runAgentLoop({ client: server.client(), body, tools: [tool] });
    expect(result.stopReason).toBe('max_turns');
    expect(result.runTimes).toBe(20);
    expect(server.requests).toHaveLength(20);
    expect(server.pending()).toBe(5);
    expect(tool.calls).toHaveLength(20);
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual([
      ...Array(5).fill('auto'),
      ...Array(15).fill('none'),
    ]);
    // Even a history cut off by the limit ends with every call answered.
    expect(validated(result.completeMessages).at(-1)?.role).toBe('tool');
  });

  it('lets the anti-loop guard end the loop when the model obeys tool_choice "none"', async () => {
    for (let i = 0; i < 10; i++) {
      server.enqueue((request) =>
        request.body.tool_choice === 'none'
          ? { text: 'giving up on tools' }
          : { toolCalls: [{ name: 'echo', arguments: { again: true } }] },
      );
    }
    const result = await runAgentLoop({
      client: server.client(),
      body,
      tools: [echo()],
      maxConsecutiveToolTurns: 3,
      maxRunAgentTimes: 10,
    });
    expect(result.stopReason).toBe('completed');
    expect(server.requests).toHaveLength(4);
    expect(validated(result.completeMessages).at(-1)).toEqual({ role: 'assistant', content: 'giving up on tools' });
  });

  it('lets a plan of different tool calls run past the guard; only identical turns in a row count', async () => {
    for (let i = 0; i < 7; i++) server.enqueue({ toolCalls: [{ name: 'echo', arguments: { step: i } }] });
    server.enqueue({ toolCalls: [{ name: 'echo', arguments: { step: 6 } }] }, { text: 'done' });
    const result = await runAgentLoop({ client: server.client(), body, tools: [echo()], maxConsecutiveToolTurns: 2 });
    expect(result.stopReason).toBe('completed');
    // Steps 0..6 differ: never forced. Step 6 repeated once makes two identical turns in a row: the next is forced.
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual([...Array(8).fill('auto'), 'none']);
    expect(result.state.loopGuard.repeats).toBe(2);
  });

  it('reports an empty response as an error and appends no empty assistant message, even mid-run', async () => {
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] }, { usage: null });
    const result = await runAgentLoop({ client: server.client(), body, tools: [echo()] });
    expect(result.stopReason).toBe('error');
    expect((result.error as Error).message).toMatch(/empty response/);
    expect(validated(result.completeMessages).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});
