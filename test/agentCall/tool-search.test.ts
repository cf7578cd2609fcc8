import MiniSearch from 'minisearch';
import { createMemoryJournal, DuplicateToolNameError, InvalidRunStateError } from '../../src';
import { runAgentLoop } from '../../src/run-agent-loop';
import type { RunState } from '../../src/agentCall/state/run-state';
import type { AfterToolCallEvent } from '../../src/agentCall/type';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import type { ToolDefinition } from '../../src/toolCall/type';
import { assertValidRequests } from '../helpers/history';
import { fakeTool, user } from '../helpers/tools';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The tool names a request sent, in order. */
const sentNames = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : tool.type));

function deferredTool(name: string, description: string) {
  const tool = fakeTool(name, () => ({ response: `${name} ran` }), { deferred: true });
  tool.schema = { ...tool.schema, function: { ...tool.schema.function, description } };
  return tool;
}

describe('runAgentLoop with deferred tools', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  const toolSet = () => {
    const echo = fakeTool('echo', () => ({ response: 'echoed' }));
    const weather = deferredTool('get_weather', 'Current weather and forecast for a city');
    const mail = deferredTool('sendEmail', 'Send an email to one recipient');
    const invoice = deferredTool('create-invoice', 'Create an invoice for a customer');
    return { echo, weather, mail, invoice, all: [echo, weather, mail, invoice] as ToolDefinition[] };
  };

  const run = (tools: ToolDefinition[], extra: Partial<Parameters<typeof runAgentLoop>[0]> = {}) =>
    runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools, ...extra });

  it('sends a deferred tool that body.tool_choice names from the first request on', async () => {
    const t = toolSet();
    server.enqueue({ toolCalls: [{ id: 'm1', name: 'sendEmail', arguments: {} }] }, { text: 'sent' });
    const result = await run(t.all, {
      body: {
        model: 'm',
        messages: [user('mail Ann')],
        tool_choice: { type: 'function', function: { name: 'sendEmail' } },
      },
    });

    expect(result.stopReason).toBe('completed');
    expect(sentNames(server.requests[0])).toEqual(['echo', 'search_tools', 'sendEmail']);
    expect(server.requests[0].body.tool_choice).toEqual({ type: 'function', function: { name: 'sendEmail' } });
    expect(t.mail.calls).toHaveLength(1);
    expect(result.state.foundTools).toEqual(['sendEmail']);
    // A tool_choice that names a tool not deferred, or none, finds nothing.
    server.enqueue({ text: 'ok' });
    const plain = await run(t.all, {
      body: { model: 'm', messages: [user('hi')], tool_choice: { type: 'function', function: { name: 'echo' } } },
    });
    expect(sentNames(server.requests[2])).toEqual(['echo', 'search_tools']);
    expect(plain.state.foundTools).toBeUndefined();
  });

  it('sends no deferred tool until search_tools finds it, then sends it from the next request on', async () => {
    const t = toolSet();
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'weather' } }] },
      { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: {} }] },
      { text: 'sunny' },
    );
    const after: AfterToolCallEvent[] = [];
    const result = await run(t.all, { onAfterToolCall: (e) => after.push(e) });

    expect(result.stopReason).toBe('completed');
    expect(server.requests.map(sentNames)).toEqual([
      ['echo', 'search_tools'],
      ['echo', 'search_tools', 'get_weather'],
      ['echo', 'search_tools', 'get_weather'],
    ]);
    const schema = server.requests[0].body.tools![1];
    expect(schema).toMatchObject({
      type: 'function',
      function: {
        name: 'search_tools',
        description: expect.stringContaining('Search the tools that are not loaded yet'),
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    });
    const answer = result.completeMessages.find((m) => m.role === 'tool' && m.tool_call_id === 's1');
    expect(answer?.content).toBe(
      'Found 1 tool; you can call it from now on:\n- get_weather: Current weather and forecast for a city',
    );
    expect(after.map((e) => [e.call.function.name, e.outcome])).toEqual([
      ['search_tools', 'ok'],
      ['get_weather', 'ok'],
    ]);
    expect(t.weather.calls).toHaveLength(1);
    expect(result.state.foundTools).toEqual(['get_weather']);
    assertValidRequests(server.requests);
  });

  it('keeps each request within 128 tools: the tools found longest ago make room, and one found again comes back', async () => {
    const echo = fakeTool('echo', () => ({ response: 'echoed' }));
    const deferred = Array.from({ length: 140 }, (_, i) => deferredTool(`tool_${i}`, `Tool number ${i}`));
    const calls = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ id: `c${from + i}`, name: `tool_${from + i}`, arguments: {} }));
    // At most 64 calls a turn are run: 130 tools are found over three turns.
    server.enqueue(
      { toolCalls: calls(0, 60) },
      { toolCalls: calls(60, 120) },
      { toolCalls: calls(120, 130) },
      { toolCalls: [{ id: 'again', name: 'tool_1', arguments: {} }] },
      { text: 'done' },
    );
    const result = await run([echo, ...deferred]);

    expect(result.stopReason).toBe('completed');
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `tool_${from + i}`);
    const sent = server.requests.map(sentNames);
    expect(sent.map((names) => names.length)).toEqual([2, 62, 122, 128, 128]);
    // Until the limit, each list starts with the one before.
    expect(sent[2].slice(0, 62)).toEqual(sent[1]);
    // 130 found, room for 126 beside echo and search_tools: the first 4 found are left out.
    expect(sent[3]).toEqual(['echo', 'search_tools', ...range(4, 130)]);
    // tool_1, left out, was called by name: it runs, and comes back at the end, so tool_4 is left out now.
    expect(sent[4]).toEqual(['echo', 'search_tools', ...range(5, 130), 'tool_1']);
    expect(deferred[1].calls).toHaveLength(2);
    expect(result.state.foundTools).toEqual(['tool_0', ...range(2, 130), 'tool_1']);
    assertValidRequests(server.requests);
  });

  it('costs a run without a deferred tool nothing: no search_tools, no foundTools, the same schemas every turn', async () => {
    const echo = fakeTool('echo', () => ({ response: 'echoed' }));
    const read = fakeTool('read', () => ({ response: 'read' }));
    server.enqueue({ toolCalls: [{ name: 'echo' }] }, { text: 'done' });
    const result = await run([echo, read]);
    expect(server.requests.map(sentNames)).toEqual([
      ['echo', 'read'],
      ['echo', 'read'],
    ]);
    expect(result.state).not.toHaveProperty('foundTools');
  });

  it('indexes a tool set once, on its first search, and again only when the set changes', async () => {
    const addAll = jest.spyOn(MiniSearch.prototype, 'addAll');
    try {
      const t = toolSet();
      const search = { toolCalls: [{ name: 'search_tools', arguments: { query: 'weather' } }] };
      // A run that never searches builds no index; neither does a run without deferred tools.
      server.enqueue({ text: 'no search' });
      await run(t.all);
      server.enqueue({ toolCalls: [{ name: 'echo' }] }, { text: 'ok' });
      await run([t.echo]);
      expect(addAll).not.toHaveBeenCalled();
      server.enqueue(search, { text: 'ok' });
      await run(t.all);
      expect(addAll).toHaveBeenCalledTimes(1);
      // The next runs over the same array share it, however many searches they make.
      server.enqueue(search, search, { text: 'ok' }, search, { text: 'ok' });
      await run(t.all);
      await run(t.all);
      expect(addAll).toHaveBeenCalledTimes(1);
      // A set changed in place is indexed again.
      t.all[1] = deferredTool('get_forecast', 'Weather forecast');
      server.enqueue(search, { text: 'ok' });
      const changed = await run(t.all);
      expect(addAll).toHaveBeenCalledTimes(2);
      expect(changed.state.foundTools).toEqual(['get_forecast']);
    } finally {
      addAll.mockRestore();
    }
  });

  it('ranks each search_tools call once, though both the loop and the tool read its hits', async () => {
    const rank = jest.spyOn(MiniSearch.prototype, 'search');
    try {
      const t = toolSet();
      server.enqueue(
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'weather' } }] },
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'email' } }] },
        { text: 'ok' },
      );
      const result = await run(t.all);
      expect(result.state.foundTools).toEqual(['get_weather', 'sendEmail']);
      expect(rank).toHaveBeenCalledTimes(2);
    } finally {
      rank.mockRestore();
    }
  });

  it('ranks names split at _, - and camelCase, with prefixes and typos, names above descriptions', async () => {
    const weatherInText = deferredTool('lookup_city', 'Finds a city; also used by weather tools');
    const calendar = deferredTool('listCalendarEvents', 'Upcoming entries');
    const t = toolSet();
    const tools = [...t.all, weatherInText, calendar];
    const answers: string[] = [];
    for (const query of ['weather', 'email', 'invoice', 'invo', 'wether', 'SEND', 'calendar events']) {
      server.enqueue({ toolCalls: [{ name: 'search_tools', arguments: { query } }] });
    }
    server.enqueue({ text: 'ok' });
    await run(tools, { onAfterToolCall: (e) => answers.push(e.response) });
    const firstHit = (answer: string) => /^- ([\w-]+)/m.exec(answer)?.[1];
    expect(answers.map(firstHit)).toEqual([
      'get_weather',
      'sendEmail',
      'create-invoice',
      'create-invoice',
      'get_weather',
      'sendEmail',
      'listCalendarEvents',
    ]);
    expect(answers[0]).toContain('- lookup_city: Finds a city; also used by weather tools');
  });

  it('answers an empty query (or one without words) with help, not an error', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'e1', name: 'search_tools', arguments: { query: '' } }] },
      { toolCalls: [{ id: 'e2', name: 'search_tools', arguments: { query: ' ?! ' } }] },
      { text: 'ok' },
    );
    const after: AfterToolCallEvent[] = [];
    const result = await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(result.stopReason).toBe('completed');
    for (const event of after) {
      expect(event.outcome).toBe('ok');
      expect(event.response).toBe(
        'The query has no words to search for. Describe the tool you need in a few words (for example "send email"); 3 tools can be found this way.',
      );
    }
    expect(result.state).not.toHaveProperty('foundTools');
    expect(server.requests.map(sentNames).at(-1)).toEqual(['echo', 'search_tools']);
  });

  it('answers a query that matches nothing, quoting it cut and on one line', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'zzqx\nplorb ' + 'y'.repeat(300) } }] },
      { text: 'ok' },
    );
    const after: AfterToolCallEvent[] = [];
    await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(after[0].outcome).toBe('ok');
    expect(after[0].response).toMatch(/^No tool matches "zzqx plorb y{88}…"\. Try other words/);
    expect(server.requests.map(sentNames).at(-1)).toEqual(['echo', 'search_tools']);
  });

  it('cuts a 100 KB query to a bound before searching, and answers it quickly', async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}x`).join(' ');
    const query = `weather ${words}`.slice(0, 100_000);
    expect(query.length).toBe(100_000);
    server.enqueue({ toolCalls: [{ name: 'search_tools', arguments: { query } }] }, { text: 'ok' });
    const after: AfterToolCallEvent[] = [];
    const result = await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(after[0].outcome).toBe('ok');
    // Its first words are searched for; the rest is never read.
    expect(after[0].response).toContain('- get_weather:');
    expect(after[0].durationMs).toBeLessThan(250);
    expect(result.state.foundTools).toEqual(['get_weather']);
  });

  it('reads only the first 500 characters of a query: a word past them is not searched for', async () => {
    const query = `${' '.repeat(99_993)}weather`;
    server.enqueue({ toolCalls: [{ name: 'search_tools', arguments: { query } }] }, { text: 'ok' });
    const after: AfterToolCallEvent[] = [];
    const result = await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(after[0].response).toMatch(/^The query has no words to search for/);
    expect(result.state).not.toHaveProperty('foundTools');
  });

  it.each([
    ['a number', { query: 42 }, 'query: must be a string'],
    ['missing', {}, 'query: is required (a few words about the tool you need)'],
    ['null', { query: null }, 'query: must be a string'],
  ])('answers a query that is %s as invalid arguments', async (_, args, line) => {
    server.enqueue({ toolCalls: [{ name: 'search_tools', arguments: args }] }, { text: 'ok' });
    const after: AfterToolCallEvent[] = [];
    const result = await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(result.stopReason).toBe('completed');
    expect(after[0].outcome).toBe('invalid_arguments');
    expect(after[0].response).toBe(`Invalid arguments for tool "search_tools":\n${line}`);
  });

  it('answers arguments that are not JSON as invalid arguments', async () => {
    server.enqueue({ toolCalls: [{ name: 'search_tools', arguments: '{"query": ' }] }, { text: 'ok' });
    const after: AfterToolCallEvent[] = [];
    await run(toolSet().all, { onAfterToolCall: (e) => after.push(e) });
    expect(after[0].outcome).toBe('invalid_arguments');
    expect(after[0].response).toMatch(/^Invalid arguments: /);
  });

  it('with 200 deferred tools sends only the ones found (at most 10 a search)', async () => {
    const echo = fakeTool('echo', () => ({ response: 'echoed' }));
    const deferred = Array.from({ length: 200 }, (_, i) =>
      deferredTool(`tool_${i}`, i % 20 === 0 ? `Reports the billing total number ${i}` : `Does chore ${i}`),
    );
    server.enqueue(
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'billing' } }] },
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'chore' } }] },
      { text: 'ok' },
    );
    const result = await run([echo, ...deferred]);
    const [first, second, third] = server.requests.map(sentNames);
    expect(first).toEqual(['echo', 'search_tools']);
    const billing = Array.from({ length: 10 }, (_, i) => `tool_${i * 20}`);
    expect(second.slice(0, 2)).toEqual(['echo', 'search_tools']);
    expect(new Set(second.slice(2))).toEqual(new Set(billing));
    expect(second).toHaveLength(12);
    expect(third.slice(0, 12)).toEqual(second);
    expect(third).toHaveLength(22);
    expect(result.state.foundTools).toEqual(third.slice(2));
    // The schemas that go out are the tools' own.
    const sent = server.requests[2].body.tools!.find((t) => t.type === 'function' && t.function.name === 'tool_20');
    expect(sent).toEqual(expect.objectContaining({ type: 'function' }));
  });

  it('runs a deferred tool the model calls before finding it, and sends it from then on', async () => {
    const t = toolSet();
    server.enqueue({ toolCalls: [{ name: 'sendEmail', arguments: { to: 'a' } }] }, { text: 'sent' });
    const after: AfterToolCallEvent[] = [];
    const result = await run(t.all, { onAfterToolCall: (e) => after.push(e) });
    expect(after.map((e) => e.outcome)).toEqual(['ok']);
    expect(t.mail.calls).toHaveLength(1);
    expect(server.requests.map(sentNames)).toEqual([
      ['echo', 'search_tools'],
      ['echo', 'search_tools', 'sendEmail'],
    ]);
    expect(result.state.foundTools).toEqual(['sendEmail']);
  });

  it('takes what a turn finds in call order, whichever call finishes first', async () => {
    const t = toolSet();
    const slow = deferredTool('slow_report', 'A slow report');
    slow.execute = () => new Promise((resolve) => setTimeout(() => resolve({ response: 'late' }), 50));
    server.enqueue(
      {
        toolCalls: [
          { name: 'slow_report', arguments: {} },
          { name: 'search_tools', arguments: { query: 'invoice' } },
          { name: 'sendEmail', arguments: {} },
        ],
      },
      { text: 'ok' },
    );
    const result = await run([...t.all, slow], { toolConcurrency: 3 });
    expect(result.state.foundTools).toEqual(['slow_report', 'create-invoice', 'sendEmail']);
    expect(sentNames(server.requests[1])).toEqual([
      'echo',
      'search_tools',
      'slow_report',
      'create-invoice',
      'sendEmail',
    ]);
  });

  it('finds what a search finds when its answer is replayed from the journal', async () => {
    const journal = createMemoryJournal();
    await journal.set('run-1:s1', { response: 'recorded answer' });
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'weather' } }] },
      { text: 'ok' },
    );
    const result = await run(toolSet().all, { runId: 'run-1', journal });
    expect(result.completeMessages).toContainEqual({ role: 'tool', tool_call_id: 's1', content: 'recorded answer' });
    expect(result.state.foundTools).toEqual(['get_weather']);
    expect(sentNames(server.requests[1])).toEqual(['echo', 'search_tools', 'get_weather']);
  });

  it('keeps what was found across a pause and a JSON round trip of the state', async () => {
    const t = toolSet();
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { deferred: true, needsApproval: true });
    const tools = [...t.all, pay];
    server.enqueue(
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'invoice' } }] },
      { toolCalls: [{ id: 'p1', name: 'pay' }] },
      { text: 'done' },
    );
    const checkpoints: RunState[] = [];
    const paused = await run(tools, { onCheckpoint: (s) => void checkpoints.push(roundTrip(s)) });
    expect(paused.stopReason).toBe('interactive');
    expect(paused.state.foundTools).toEqual(['create-invoice', 'pay']);
    expect(checkpoints.at(-1)?.foundTools).toEqual(['create-invoice', 'pay']);

    const resumed = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools,
      resumeFrom: roundTrip(paused.state),
      decisions: { p1: { approve: true } },
    });
    expect(resumed.stopReason).toBe('completed');
    expect(pay.calls).toHaveLength(1);
    expect(sentNames(server.requests[2])).toEqual(['echo', 'search_tools', 'create-invoice', 'pay']);
    expect(resumed.state.foundTools).toEqual(['create-invoice', 'pay']);
  });

  it('keeps found names the resuming run has no deferred tool for, without sending them', async () => {
    const t = toolSet();
    server.enqueue({ text: 'ok' });
    const state: RunState = {
      v: 1,
      runId: 'r',
      messages: [user('go')],
      turn: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      loopGuard: { signature: '', repeats: 0 },
      pending: [],
      foundTools: ['gone_tool', 'echo', 'sendEmail'],
    };
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: t.all,
      resumeFrom: state,
    });
    expect(sentNames(server.requests[0])).toEqual(['echo', 'search_tools', 'sendEmail']);
    expect(result.state.foundTools).toEqual(['gone_tool', 'echo', 'sendEmail']);
  });

  it.each([
    ['not an array', 'get_weather', 'foundTools must be an array of tool names'],
    ['a number in it', ['get_weather', 7], 'foundTools[1] must be a valid tool name'],
    ['an invalid name', ['get weather'], 'foundTools[0] must be a valid tool name'],
    ['a name listed twice', ['sendEmail', 'sendEmail'], 'foundTools[1] is listed twice'],
  ])('refuses a resumed state whose foundTools is %s, before any request', async (_, foundTools, message) => {
    const state = {
      v: 1,
      runId: 'r',
      messages: [user('go')],
      turn: 0,
      pending: [],
      foundTools,
    } as unknown as RunState;
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [] },
      tools: toolSet().all,
      resumeFrom: state,
    });
    expect(result.stopReason).toBe('error');
    expect(InvalidRunStateError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toBe(`Cannot resume from this run state: ${message}`);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a tool named search_tools next to deferred tools, and allows it without them', async () => {
    const own = fakeTool('search_tools', () => ({ response: 'mine' }));
    const refused = await run([own, ...toolSet().all]);
    expect(refused.stopReason).toBe('error');
    expect(DuplicateToolNameError.isInstance(refused.error)).toBe(true);
    expect((refused.error as DuplicateToolNameError).toolName).toBe('search_tools');
    expect(server.requests).toHaveLength(0);

    server.enqueue({ toolCalls: [{ name: 'search_tools' }] }, { text: 'ok' });
    const allowed = await run([own]);
    expect(allowed.stopReason).toBe('completed');
    expect(own.calls).toHaveLength(1);
  });
});
