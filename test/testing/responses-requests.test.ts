import fc from 'fast-check';
import type OpenAI from 'openai';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { toResponsesInput } from './responses-input';

/** A kept reasoning item, as a Responses client sends it back. */
const reasoningItem = (id: string) => ({
  type: 'reasoning' as const,
  id,
  summary: [{ type: 'summary_text' as const, text: `thought ${id}` }],
  encrypted_content: `enc-${id}`,
});

describe('startScriptedServer: Responses requests are recorded in chat shape', () => {
  let server: ScriptedServer;
  let openai: OpenAI;

  beforeAll(async () => {
    server = await startScriptedServer();
    openai = server.client();
  });
  afterAll(() => server.close());

  /** Send one Responses body (never streamed, so the answer does not matter) and return what was recorded. */
  async function recorded(body: OpenAI.Responses.ResponseCreateParamsNonStreaming) {
    server.enqueue({});
    await openai.responses.create(body);
    return server.requests.at(-1)!;
  }

  it('translates a whole tool-calling history and the settings back into one chat body', async () => {
    const request = await recorded({
      model: 'm',
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Use tools.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        reasoningItem('rs_1'),
        { role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'c2', name: 'get_time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '15°C' },
        { type: 'function_call_output', call_id: 'c2', output: '12:00' },
        reasoningItem('rs_2'),
        { type: 'function_call', call_id: 'c3', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c3', output: '19°C' },
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Paris 15°C, ', annotations: [] },
            { type: 'output_text', text: 'Rome 19°C.', annotations: [] },
          ],
        },
      ] as ResponseInputItem[],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object' },
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      max_output_tokens: 100,
      text: {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      reasoning: { effort: 'high', summary: 'auto' },
      temperature: 0.2,
      store: false,
      include: ['reasoning.encrypted_content'],
      parallel_tool_calls: true,
      metadata: { run: '1' },
    });

    expect(request.wire).toBe('responses');
    expect(request.body).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Use tools.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: 'Checking.',
          reasoning_items: [reasoningItem('rs_1')],
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'c2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '15°C' },
        { role: 'tool', tool_call_id: 'c2', content: '12:00' },
        {
          role: 'assistant',
          content: null,
          reasoning_items: [reasoningItem('rs_2')],
          tool_calls: [{ id: 'c3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
        },
        { role: 'tool', tool_call_id: 'c3', content: '19°C' },
        { role: 'assistant', content: 'Paris 15°C, Rome 19°C.' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: false },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_tokens: 100,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
      text: { verbosity: 'low' },
      reasoning_effort: 'high',
      reasoning: { summary: 'auto' },
      temperature: 0.2,
      store: false,
      include: ['reasoning.encrypted_content'],
      parallel_tool_calls: true,
      metadata: { run: '1' },
    });
  });

  it('keeps the raw body exactly as sent', async () => {
    const body = { model: 'm', input: [{ role: 'user' as const, content: 'hi' }], max_output_tokens: 5 };

    const request = await recorded(body);

    expect(request.rawBody).toEqual(body);
  });

  it('reads a string input as one user message, and json_object and text formats keep their type', async () => {
    const first = await recorded({ model: 'm', input: 'hi', text: { format: { type: 'json_object' } } });
    const second = await recorded({ model: 'm', input: 'hi', text: { format: { type: 'text' } } });

    expect(first.body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_object' },
    });
    expect(second.body.response_format).toEqual({ type: 'text' });
  });

  it('gives a function call with no assistant message before it one of its own, with content null', async () => {
    const request = await recorded({
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'done' },
        { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
      ],
    });

    expect(request.body.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
  });

  it('keeps reasoning with no assistant message after it on an assistant message of its own, and unknown items as sent', async () => {
    const reference = { type: 'item_reference' as const, id: 'msg_9' };
    const request = await recorded({
      model: 'm',
      input: [reasoningItem('rs_1'), { role: 'user', content: 'next' }, reference, reasoningItem('rs_2')],
    });

    expect(request.body.messages).toEqual([
      { role: 'assistant', content: null, reasoning_items: [reasoningItem('rs_1')] },
      { role: 'user', content: 'next' },
      reference,
      { role: 'assistant', content: null, reasoning_items: [reasoningItem('rs_2')] },
    ]);
  });

  it('round-trips a served reasoning item: sent back in the next input, it is recorded as received', async () => {
    server.enqueue({ reasoning: 'Weather first.', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{}' }] });
    const first = await openai.responses.create({ model: 'm', input: 'Weather?', store: false });
    const [reasoning, call] = first.output;

    const request = await recorded({
      model: 'm',
      input: [
        { role: 'user', content: 'Weather?' },
        reasoning as ResponseInputItem,
        call as ResponseInputItem,
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
      ],
    });

    expect(request.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_items: [reasoning],
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    });
    expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^scripted-enc:/) });
  });

  it('property: a chat history sent as Responses input is recorded as the same messages', async () => {
    await fc.assert(
      fc.asyncProperty(chatHistory(), async (messages) => {
        const request = await recorded({ model: 'm', input: toResponsesInput(messages) });
        expect(request.body.messages).toEqual(messages);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * Chat histories a loop produces: system, developer and user messages (text or text parts), assistant messages
 * with text and/or tool calls and kept reasoning, tool results. Two assistant messages are never adjacent: in
 * a loop a user or tool message always comes between them.
 */
function chatHistory(): fc.Arbitrary<ChatCompletionMessageParam[]> {
  const text = fc.string({ maxLength: 12 });
  const id = fc.stringMatching(/^[a-z0-9_]{1,8}$/);
  const plain = fc.oneof(
    fc.record({ role: fc.constantFrom('system' as const, 'developer' as const, 'user' as const), content: text }),
    fc.record({
      role: fc.constant('user' as const),
      content: fc.array(fc.record({ type: fc.constant('text' as const), text }), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ role: fc.constant('tool' as const), tool_call_id: id, content: text }),
  );
  const call = fc.record({
    id,
    type: fc.constant('function' as const),
    function: fc.record({ name: id, arguments: fc.json({ maxDepth: 1 }) }),
  });
  const reasoning = fc.array(id.map(reasoningItem), { maxLength: 2 });
  const assistant = fc
    .record({ content: fc.option(text, { nil: null }), calls: fc.array(call, { maxLength: 3 }), reasoning })
    .filter(({ content, calls }) => content !== null || calls.length > 0)
    .map(({ content, calls, reasoning: kept }) => {
      const message: ChatCompletionAssistantMessageParam & { reasoning_items?: unknown[] } = {
        role: 'assistant',
        content,
      };
      if (kept.length > 0) message.reasoning_items = kept;
      if (calls.length > 0) message.tool_calls = calls;
      return message;
    });
  return fc
    .array(fc.oneof(plain, assistant), { maxLength: 12 })
    .map((messages) => messages.filter((m, i) => !(m.role === 'assistant' && messages[i - 1]?.role === 'assistant')));
}
