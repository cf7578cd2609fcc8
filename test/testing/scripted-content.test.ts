/**
 * What real models send besides text and function calls, scripted: a refusal, hosted output items, a custom tool's
 * call and cited text, as the openai SDK reads them on both routes, streamed and not; and `item_reference` items
 * read back as the items the server issued.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';

const CITATION = {
  type: 'url_citation' as const,
  url: 'https://example.com/a',
  title: 'A',
  start_index: 0,
  end_index: 4,
};
const HOSTED = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'a' } };

describe('the scripted server scripts refusals, hosted items, custom calls and citations', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer({ chunkSize: 4 });
  });
  afterEach(() => server.close());

  const reply: ScriptedReply = {
    text: 'Here it is.',
    annotations: [CITATION],
    refusal: 'I cannot help with that.',
    items: [HOSTED],
    toolCalls: [{ id: 'call_c', type: 'custom', name: 'run_sql', input: 'SELECT 1' }],
  };

  it('chat, not streamed: message.refusal, message.annotations and a custom call', async () => {
    server.enqueue(reply);
    const completion = await server
      .client()
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    const message = completion.choices[0].message;
    expect(message.refusal).toBe('I cannot help with that.');
    expect(message.annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: { url: 'https://example.com/a', title: 'A', start_index: 0, end_index: 4 },
      },
    ]);
    expect(message.tool_calls).toEqual([
      { id: 'call_c', type: 'custom', custom: { name: 'run_sql', input: 'SELECT 1' } },
    ]);
  });

  it('chat, streamed: delta.refusal pieces, delta.annotations and a custom call whose input streams in pieces', async () => {
    server.enqueue(reply);
    const stream = await server.client().chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'q' }],
    });
    let refusal = '';
    const annotations: unknown[] = [];
    const calls: unknown[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        { refusal?: string; annotations?: unknown[]; tool_calls?: unknown[] } | undefined;
      refusal += delta?.refusal ?? '';
      annotations.push(...(delta?.annotations ?? []));
      calls.push(...(delta?.tool_calls ?? []));
    }
    expect(refusal).toBe('I cannot help with that.');
    expect(annotations).toHaveLength(1);
    // The call opens with its id and name, and its input streams in pieces, as function arguments do.
    const [open, ...pieces] = calls as {
      index: number;
      id?: string;
      type: string;
      custom: { name?: string; input: string };
    }[];
    expect(open).toEqual({ index: 0, id: 'call_c', type: 'custom', custom: { name: 'run_sql', input: '' } });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece.index === 0 && piece.type === 'custom' && piece.id === undefined)).toBe(true);
    expect(pieces.map((piece) => piece.custom.input).join('')).toBe('SELECT 1');
  });

  it('Responses, not streamed: the given item first, then the message (text, refusal), then custom_tool_call', async () => {
    server.enqueue(reply);
    const response = await server.client().responses.create({ model: 'm', input: 'q' });
    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message', 'custom_tool_call']);
    expect(response.output[0]).toEqual(HOSTED);
    expect(response.output[1]).toMatchObject({
      content: [
        { type: 'output_text', text: 'Here it is.', annotations: [CITATION] },
        { type: 'refusal', refusal: 'I cannot help with that.' },
      ],
    });
    expect(response.output[2]).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'call_c',
      name: 'run_sql',
      input: 'SELECT 1',
    });
  });

  it('Responses, streamed: refusal deltas, the annotation event and custom input deltas', async () => {
    server.enqueue(reply);
    const stream = await server.client().responses.create({ model: 'm', input: 'q', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const joined = (type: string) =>
      events
        .filter((e) => e.type === type)
        .map((e) => (e as { delta: string }).delta)
        .join('');
    expect(joined('response.refusal.delta')).toBe('I cannot help with that.');
    expect(joined('response.custom_tool_call_input.delta')).toBe('SELECT 1');
    expect(events.filter((e) => e.type === 'response.output_text.annotation.added')).toMatchObject([
      { annotation: CITATION, output_index: 1, content_index: 0 },
    ]);
    expect(events.find((e) => e.type === 'response.output_item.done')).toMatchObject({ item: HOSTED, output_index: 0 });
  });

  it('reads an item_reference to an item it issued as that item, and hosted items onto the next assistant message', async () => {
    server.enqueue({ items: [HOSTED], reasoning: 'r', toolCalls: [{ id: 'call_1', name: 'f', arguments: {} }] }, {});
    const first = await server.client().responses.create({ model: 'm', input: 'q' });
    await server.client().responses.create({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        ...first.output.map((item) => ({ type: 'item_reference' as const, id: item.id! })),
        { type: 'function_call_output', call_id: 'call_1', output: 'done' },
        { type: 'item_reference', id: 'never_issued' },
      ],
    });
    const messages = server.requests[1].body.messages as unknown as Record<string, unknown>[];
    expect(messages).toEqual([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: null,
        output_items: [HOSTED],
        reasoning_items: [first.output[1]],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'done' },
      // Not one of its own: kept as sent.
      { type: 'item_reference', id: 'never_issued' },
    ]);
  });
});
