import { join } from 'node:path';
import { APIError } from 'openai';
import type { ChatCompletionCustomTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { runAgentLoop, type ToolDefinition, type ToolExecuteContext } from '../../src';
import type { RequestEndEvent } from '../../src/agentCall/type';
import { recordedReply, startScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { WIRE_DIR, readWireIndex, readWireProviders, wireOf, type WireFixture, type WireProvider } from './wire-corpus';

const providers = readWireProviders();
const generatedId = new RegExp(readWireIndex().generatedIdRule.pattern);
const TOOL_ANSWERS: Record<string, string> = { get_weather: 'Paris: 18°C, sunny', get_time: '21:04' };
/** The custom tools the recordings call (free-form input): each answers with its text. */
const CUSTOM_ANSWERS: Record<string, string> = { write_sql: '2 rows' };
const REASONING_FIELDS = ['reasoning', 'reasoning_content', 'reasoning_details'];

type AssistantSent = Extract<ChatCompletionMessageParam, { role: 'assistant' }> & Record<string, unknown>;

/** Runs the fixture's loop against its files replayed byte for byte; returns what the tools, hooks and server saw. */
async function replay(provider: WireProvider, fixture: WireFixture) {
  const server = await startScriptedServer({
    turns: fixture.turns.map((turn) =>
      recordedReply(join(WIRE_DIR, provider.dir, turn.file), turn.status !== undefined ? { status: turn.status } : {}),
    ),
  });
  try {
    const tools = Object.entries(TOOL_ANSWERS).map(([name, response]) => fakeTool(name, () => ({ response })));
    const custom = Object.entries(CUSTOM_ANSWERS).map(([name, response]) => customTool(name, response));
    const reasoning: string[] = [];
    const requestEnds: RequestEndEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      wire: wireOf(provider),
      body: { model: 'm', stream: fixture.stream, messages: [user('Weather in Paris, and the time in Tokyo?')] },
      tools: [...tools, ...custom],
      onReasoning: ({ text }) => reasoning.push(text),
      onRequestEnd: (e) => requestEnds.push(e),
    });
    // In the order the history lists them, which is the order the model made them.
    const order = server.requests
      .at(-1)!
      .body.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    const byOrder = (a: { call: { id: string } }, b: { call: { id: string } }) =>
      order.findIndex((c) => c.id === a.call.id) - order.findIndex((c) => c.id === b.call.id);
    const calls = [
      ...tools.flatMap((tool) => tool.calls),
      ...custom.flatMap((tool) => tool.calls.map((ctx) => ({ ...ctx, custom: true }))),
    ]
      .sort(byOrder)
      .map((ctx) =>
        'custom' in ctx
          ? { name: ctx.call.function.name, input: ctx.call.function.arguments }
          : { name: ctx.call.function.name, arguments: JSON.parse(ctx.call.function.arguments) as unknown },
      );
    return {
      result,
      calls,
      reasoning: reasoning.join(''),
      requestEnds,
      requests: server.requests,
      pending: server.pending(),
    };
  } finally {
    await server.close();
  }
}

/** The assistant messages of a request body, each with the tool messages that follow it. */
function turnsIn(messages: ChatCompletionMessageParam[]) {
  const turns: { assistant: AssistantSent; toolMessages: ChatCompletionMessageParam[] }[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') turns.push({ assistant: message as AssistantSent, toolMessages: [] });
    else if (message.role === 'tool') turns.at(-1)?.toolMessages.push(message);
  }
  return turns;
}

const extraKeys = (object: object, standard: string[]) =>
  Object.fromEntries(Object.entries(object).filter(([key]) => !standard.includes(key)));

describe.each(providers.map((p) => [p.provider, p] as const))('wire corpus: %s', (_name, provider) => {
  const idRule = new RegExp(provider.toolCallId.pattern);

  it('names its sources and its tool-call id rule', () => {
    expect(provider.sources.length).toBeGreaterThan(0);
    expect(provider.toolCallId.source).toMatch(/^https:\/\//);
    for (const fixture of provider.fixtures) expect(fixture.source.length).toBeGreaterThan(0);
  });

  it.each(provider.fixtures.map((f) => [f.name, f] as const))('%s', async (_fixture, fixture) => {
    const { result, calls, reasoning, requestEnds, requests, pending } = await replay(provider, fixture);
    const { expect: want } = fixture;

    expect(pending).toBe(0);
    expect(requests).toHaveLength(fixture.turns.length);
    for (const request of requests) expect(request.body.stream === true).toBe(fixture.stream);
    for (const request of requests) expect(request.wire).toBe(wireOf(provider));
    expect(result.stopReason).toBe(want.stopReason);
    if (want.stopReason === 'error') {
      expect(result.error).toBeInstanceOf(APIError);
      if (want.status !== undefined) expect((result.error as APIError).status).toBe(want.status);
    }
    if (want.refusal !== undefined) {
      expect(result.refusal).toBe(want.refusal);
      expect(result.error).toBeUndefined();
    }
    if (want.items) expect(result.items?.map((item) => item.type)).toEqual(want.items);
    if (want.citations) {
      const answer = result.assistantMessages.at(-1) as { annotations?: { url_citation: { url: string } }[] };
      expect(answer.annotations?.map((a) => a.url_citation.url)).toEqual(want.citations);
    }
    expect(calls).toEqual(want.calls);
    if (want.answer !== undefined) expect(result.text).toBe(want.answer);
    expect(reasoning).toBe(want.reasoning ?? '');
    if (want.usage) expect(requestEnds.map((e) => e.usage)).toEqual(want.usage);

    // The history agentcall sent back, as the last request carries it whole.
    const sent = turnsIn(requests.at(-1)!.body.messages);
    const providerIds = new Set(want.ids?.filter((id): id is string => id !== null));
    const ids: string[] = [];
    for (const { assistant, toolMessages } of sent) {
      for (const key of Object.keys(assistant)) expect(provider.assistantMessage.accepts).toContain(key);
      const toolCalls = assistant.tool_calls ?? [];
      // One tool message per call, in the calls' order, each carrying only what every provider reads.
      expect(toolMessages.map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(toolCalls.map((c) => c.id));
      for (const message of toolMessages) {
        expect(Object.keys(message).sort()).toEqual(['content', 'role', 'tool_call_id']);
        if (want.toolMessagesInclude) expect(message.content).toContain(want.toolMessagesInclude);
      }
      for (const call of toolCalls) {
        for (const key of Object.keys(call)) expect(provider.toolCall.accepts).toContain(key);
        // A custom call goes back in its own shape, its input the text the model wrote.
        if (call.type === 'custom') expect(typeof call.custom.input).toBe('string');
        else expect(call.type).toBe('function');
        if (call.type !== 'custom')
          expect(typeof (call as { function: { arguments: unknown } }).function.arguments).toBe('string');
        expect(call.id).toMatch(idRule);
        ids.push(call.id);
      }
    }
    if (want.ids) {
      expect(ids).toHaveLength(want.ids.length);
      want.ids.forEach((id, i) => {
        if (id !== null) expect(ids[i]).toBe(id);
        else expect(ids[i]).toMatch(generatedId);
      });
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids.filter((_, i) => want.ids![i] === null)) expect(providerIds.has(id)).toBe(false);
    }

    const first = sent[0]?.assistant;
    if (want.assistantFields) {
      expect(extraKeys(first, ['role', 'content', 'tool_calls'])).toEqual(want.assistantFields);
    } else {
      for (const { assistant } of sent)
        for (const field of REASONING_FIELDS) expect(assistant).not.toHaveProperty(field);
    }
    if (first?.tool_calls) {
      const fields = first.tool_calls.map((call) => extraKeys(call, ['id', 'type', 'function', 'custom']));
      expect(fields).toEqual(want.toolCallFields ?? first.tool_calls.map(() => ({})));
    }
  });
});

describe('wire corpus: the Responses recordings go back as the Responses API reads them', () => {
  const responsesProviders = providers.filter((p) => wireOf(p) === 'responses');
  const withReasoning = responsesProviders.flatMap((provider) =>
    provider.fixtures
      .filter((f) => f.expect.assistantFields?.reasoning_items !== undefined)
      .map((f) => [`${provider.provider}: ${f.name}`, provider, f] as const),
  );

  it.each(withReasoning)('%s', async (_name, provider, fixture) => {
    const { requests } = await replay(provider, fixture);
    const last = requests.at(-1)!;
    if (last.wire !== 'responses') throw new Error('expected a Responses request');
    // In the order the model produced them: the reasoning item, then each function_call, then each output.
    const input = last.rawBody.input as { type?: string; role?: string; call_id?: string }[];
    const kinds = input.map((item) => item.type ?? `message:${item.role}`);
    const calls = fixture.expect.calls.length;
    expect(kinds).toEqual([
      'message:user',
      'reasoning',
      ...Array.from({ length: calls }, () => 'function_call'),
      ...Array.from({ length: calls }, () => 'function_call_output'),
    ]);
    expect(input[1]).toEqual((fixture.expect.assistantFields!.reasoning_items as unknown[])[0]);
    const ids = input.filter((item) => item.type === 'function_call').map((item) => item.call_id);
    expect(input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id)).toEqual(ids);
    expect(ids).toEqual(fixture.expect.ids);
    expect(last.rawBody).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
  });
});

describe('wire corpus: custom tool calls go back in their own shape', () => {
  const withCustom = providers.flatMap((provider) =>
    provider.fixtures
      .filter((f) => f.expect.calls.some((call) => 'input' in call))
      .map((f) => [`${provider.provider}: ${f.name}`, provider, f] as const),
  );

  it('has a custom tool call recording on each wire', () => {
    expect([...new Set(withCustom.map(([, provider]) => wireOf(provider)))].sort()).toEqual(['chat', 'responses']);
  });

  it.each(withCustom)('%s', async (_name, provider, fixture) => {
    const { requests } = await replay(provider, fixture);
    const last = requests.at(-1)!;
    const [call] = fixture.expect.calls as { name: string; input: string }[];
    const [id] = fixture.expect.ids!;
    const answer = { role: 'tool', tool_call_id: id, content: CUSTOM_ANSWERS[call.name] };
    expect(last.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'custom', custom: call }] },
      answer,
    ]);
    if (last.wire === 'responses')
      expect(last.rawBody.input).toEqual([
        { role: 'user', content: expect.anything() },
        { type: 'custom_tool_call', call_id: id, name: call.name, input: call.input },
        { type: 'custom_tool_call_output', call_id: id, output: answer.content },
      ]);
  });
});

describe('wire corpus: coverage', () => {
  it('has Responses recordings of OpenAI and at least two Open Responses servers, each streamed and replayed', () => {
    const responses = providers.filter((p) => wireOf(p) === 'responses');
    expect(responses.map((p) => p.dir).sort()).toEqual(['ollama-responses', 'openai-responses', 'vllm-responses']);
    for (const provider of responses) {
      expect(provider.endpoint).toMatch(/\/v1\/responses$/);
      expect(provider.fixtures.some((f) => f.stream && f.expect.stopReason === 'completed')).toBe(true);
    }
  });

  it('has every chat provider the contract names, each with a streamed, a non-streamed and an error fixture', () => {
    const chat = providers.filter((p) => wireOf(p) === 'chat');
    expect(chat.map((p) => p.dir).sort()).toEqual(
      [
        'anthropic',
        'azure-openai',
        'deepseek',
        'gemini',
        'groq',
        'llama-cpp',
        'mistral',
        'ollama',
        'openai',
        'openrouter',
        'vllm',
      ].sort(),
    );
    for (const provider of chat) {
      const kinds = new Set(provider.fixtures.map((f) => (f.expect.stopReason === 'error' ? 'error' : f.stream)));
      expect([provider.dir, [...kinds].sort()]).toEqual([provider.dir, [false, true, 'error'].sort()]);
    }
  });
});

/** A custom tool (free-form input) that answers `response` and records what it was given. */
function customTool(name: string, response: string) {
  const calls: ToolExecuteContext<string>[] = [];
  const tool: ToolDefinition<string, ChatCompletionCustomTool> & { calls: typeof calls } = {
    schema: { type: 'custom', custom: { name } },
    execute: async (ctx) => {
      calls.push(ctx);
      return { response };
    },
    calls,
  };
  return tool;
}
