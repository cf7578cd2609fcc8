/**
 * A Responses server nobody here wrote: `@copilotkit/aimock`'s `/v1/responses`, driven by its own fixtures, read
 * by the real openai SDK and the whole loop on `wire: 'responses'`. Our scripted server agrees with us by
 * construction; this one does not have to. Its journal holds its own reading of each request (chat messages), so the
 * bytes as sent are taken from the client's `fetch`.
 */
import { LLMock } from '@copilotkit/aimock';
import OpenAI from 'openai';
import { runAgentLoop } from '../../src';
import { fakeTool, user } from '../helpers/tools';

const PROMPT = 'Weather in Paris, and the time in Tokyo?';
const ANSWER = 'It is 18°C and sunny in Paris; in Tokyo it is 21:04.';

/** What aimock made of each `/v1/responses` request: its own translation into chat messages, which it journals. */
type AimockRead = { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
const aimockReads = (mock: LLMock) =>
  mock
    .getRequests()
    .filter((entry) => entry.path === '/v1/responses')
    .map((entry) => entry.body as unknown as AimockRead);

describe('aimock: the loop on its /v1/responses', () => {
  let mock: LLMock;
  let client: OpenAI;
  /** Each request body as it went over the wire. */
  const sent: Record<string, unknown>[] = [];
  beforeAll(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1' });
    // First leg: two calls; second leg (the tool results are in): the answer.
    mock.on(
      { userMessage: PROMPT, hasToolResult: false },
      {
        toolCalls: [
          { id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_time_1', name: 'get_time', arguments: '{"timezone":"Asia/Tokyo"}' },
        ],
      },
    );
    mock.on({ userMessage: PROMPT, hasToolResult: true }, { content: ANSWER });
    await mock.start();
    client = new OpenAI({
      baseURL: `${mock.url}/v1`,
      apiKey: 'mock',
      maxRetries: 0,
      fetch: (url, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
        return fetch(url, init);
      },
    });
  });
  afterAll(() => mock.stop());
  beforeEach(() => {
    sent.length = 0;
    mock.clearRequests();
    mock.resetMatchCounts();
  });

  it.each([true, false])('runs both tools and answers (stream: %s)', async (stream) => {
    const weather = fakeTool('get_weather', () => ({ response: 'Paris: 18°C, sunny' }));
    const time = fakeTool('get_time', () => ({ response: '21:04' }));
    const toolCalls: string[] = [];
    const result = await runAgentLoop({
      client,
      wire: 'responses',
      body: { model: 'gpt-5.1', stream, messages: [user(PROMPT)] },
      tools: [weather, time],
      onToolCall: ({ call }) => toolCalls.push(`${call.function.name} ${call.id}`),
    });

    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe(ANSWER);
    expect(toolCalls).toEqual(['get_weather call_weather_1', 'get_time call_time_1']);
    expect(weather.calls.map((c) => c.params)).toEqual([{ city: 'Paris' }]);
    expect(time.calls.map((c) => c.params)).toEqual([{ timezone: 'Asia/Tokyo' }]);
    expect(result.completeMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);

    // What went over the wire: two Responses requests, the second with each call and its output paired by call_id.
    expect(sent).toHaveLength(2);
    for (const body of sent) expect(body).toMatchObject({ model: 'gpt-5.1', stream, store: false });
    expect(sent[0].tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'get_weather tool',
        parameters: weather.schema.function.parameters,
        strict: false,
      },
      {
        type: 'function',
        name: 'get_time',
        description: 'get_time tool',
        parameters: time.schema.function.parameters,
        strict: false,
      },
    ]);
    // aimock answers its tool calls with an encrypted reasoning item, as OpenAI does: it goes back in place, as kept.
    const kept = (result.completeMessages[1] as { reasoning_items?: unknown[] }).reasoning_items;
    expect(kept).toEqual([
      { type: 'reasoning', id: expect.stringMatching(/^rs-/), summary: [], encrypted_content: expect.any(String) },
    ]);
    expect(sent[1].input).toEqual([
      { role: 'user', content: PROMPT },
      kept![0],
      { type: 'function_call', call_id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_time_1', name: 'get_time', arguments: '{"timezone":"Asia/Tokyo"}' },
      { type: 'function_call_output', call_id: 'call_weather_1', output: 'Paris: 18°C, sunny' },
      { type: 'function_call_output', call_id: 'call_time_1', output: '21:04' },
    ]);
    // And aimock read it so: every tool result answers a call it saw, by id.
    const reads = aimockReads(mock);
    expect(reads).toHaveLength(2);
    const messages = reads[1].messages;
    const callIds = messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    expect(callIds).toEqual(['call_weather_1', 'call_time_1']);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(callIds);
  });
});
