/**
 * Output items that are not function calls never fail a run on the Responses wire (on both stream parsers,
 * streamed and not): a hosted tool's call, a compaction, an echoed output, a type not known yet. They are kept on
 * the assistant message, reported in `result.items`, sent back once per request where the model produced them, and
 * the answer next to them is the answer. Citations stay on the message that holds their text.
 */
import { runAgentLoop } from '../../src';
import type { ChatCompletionAssistantMessageParam } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

/** One of each kind, shaped as the openai SDK's `ResponseOutputItem` types describe them (openai 6.x). */
const HOSTED: Record<string, unknown>[] = [
  { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather paris' } },
  { id: 'fs_1', type: 'file_search_call', status: 'completed', queries: ['q'], results: null },
  {
    id: 'mcp_1',
    type: 'mcp_call',
    server_label: 'docs',
    name: 'lookup',
    arguments: '{}',
    output: 'found',
    error: null,
    status: 'completed',
  },
  { id: 'mcpl_1', type: 'mcp_list_tools', server_label: 'docs', tools: [{ name: 'lookup', input_schema: {} }] },
  {
    id: 'ci_1',
    type: 'code_interpreter_call',
    status: 'completed',
    code: 'print(1)',
    container_id: 'cntr_1',
    outputs: [{ type: 'logs', logs: '1' }],
  },
  { id: 'ig_1', type: 'image_generation_call', status: 'completed', result: 'aGk=' },
  {
    id: 'cu_1',
    type: 'computer_call',
    call_id: 'cc_1',
    status: 'completed',
    action: { type: 'screenshot' },
    pending_safety_checks: [],
  },
  { id: 'cmp_1', type: 'compaction', encrypted_content: 'opaque' },
  { id: 'fco_1', type: 'function_call_output', call_id: 'call_earlier', output: 'echoed' },
  { id: 'fut_1', type: 'some_item_type_from_next_year', payload: { any: 'thing' } },
];

describe('non-function output items on the Responses wire', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer({ chunkSize: 6 });
  });
  afterEach(() => server.close());

  describe.each([true, false])('stream: %s', (stream) => {
    it.each(HOSTED.map((item) => [item.type, item] as const))(
      'a %s beside a finished answer: the answer is the answer, the item kept',
      async (_type, item) => {
        server.enqueue({ items: [item], text: 'The answer.' });
        const result = await runAgentLoop({
          client: server.client(),
          wire: 'responses',
          body: { model: 'gpt-5.1', stream, messages: [user('q')] },
          tools: [],
        });
        expect(result.error).toBeUndefined();
        expect(result.stopReason).toBe('completed');
        expect(result.text).toBe('The answer.');
        expect(result.items).toEqual([item]);
        const last = result.completeMessages.at(-1) as ChatCompletionAssistantMessageParam;
        expect(last).toMatchObject({ role: 'assistant', content: 'The answer.', output_items: [item] });
      },
    );

    it('kept items go back in place, once per request, with the reasoning in output order', async () => {
      const [search, compaction] = [HOSTED[0], HOSTED[7]];
      server.enqueue(
        { items: [search], reasoning: 'Look it up.', toolCalls: [{ id: 'call_w', name: 'weather', arguments: {} }] },
        { items: [compaction], text: 'Sunny.' },
        { text: 'Done.' },
      );
      const weather = fakeTool('weather', () => ({ response: 'sunny' }));
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-5.1', stream, messages: [user('Weather?')] },
        tools: [weather],
      });
      expect(result.stopReason).toBe('completed');
      expect(result.items).toEqual([search, compaction]);
      const second = server.requests[1].rawBody as unknown as { input: Record<string, unknown>[] };
      const shape = (input: Record<string, unknown>[]) => input.map((i) => i.type ?? i.role);
      expect(shape(second.input)).toEqual([
        'user',
        'web_search_call',
        'reasoning',
        'function_call',
        'function_call_output',
      ]);
      expect(second.input[1]).toEqual(search);

      await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-5.1', stream, messages: [...result.completeMessages, user('Thanks.')] },
        tools: [weather],
      });
      const third = server.requests[2].rawBody as unknown as { input: Record<string, unknown>[] };
      expect(shape(third.input)).toEqual([
        'user',
        'web_search_call',
        'reasoning',
        'function_call',
        'function_call_output',
        'compaction',
        'assistant',
        'user',
      ]);
      // Each item once, whatever else the history holds.
      const ids = third.input.map((i) => i.id).filter((id) => id !== undefined);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('keeps url_citation annotations on the chat wire too, and never sends them back', async () => {
      const citation = { url: 'https://example.com/paris', title: 'Paris', start_index: 0, end_index: 5 };
      server.enqueue(
        { text: 'Sunny in Paris.', annotations: [{ type: 'url_citation', ...citation }] },
        { text: 'Ok.' },
      );
      const first = await runAgentLoop({
        client: server.client(),
        wire: 'chat',
        body: { model: 'gpt-5.1', stream, messages: [user('q')] },
        tools: [],
      });
      expect(first.completeMessages.at(-1)).toMatchObject({
        annotations: [{ type: 'url_citation', url_citation: citation }],
      });
      await runAgentLoop({
        client: server.client(),
        wire: 'chat',
        body: { model: 'gpt-5.1', stream, messages: [...first.completeMessages, user('More?')] },
        tools: [],
      });
      expect(server.requests[1].body.messages[1]).toEqual({ role: 'assistant', content: 'Sunny in Paris.' });
    });

    it('keeps url_citation annotations on the assistant message that holds their text', async () => {
      const citation = { url: 'https://example.com/paris', title: 'Paris', start_index: 0, end_index: 5 };
      server.enqueue({ text: 'Sunny in Paris.', annotations: [{ type: 'url_citation', ...citation }] });
      const result = await runAgentLoop({
        client: server.client(),
        wire: 'responses',
        body: { model: 'gpt-5.1', stream, messages: [user('q')] },
        tools: [],
      });
      expect(result.completeMessages.at(-1)).toMatchObject({
        role: 'assistant',
        content: 'Sunny in Paris.',
        annotations: [{ type: 'url_citation', url_citation: citation }],
      });
    });
  });
});
