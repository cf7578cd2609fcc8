/**
 * What the Responses wire keeps on an assistant message (reasoning items, hosted tools' items) goes out again with
 * every later request, so it counts: the token estimate that context fitting uses weighs it, compression summarises
 * it (reasoning by its readable summary, never its encrypted part), and one reply keeps at most
 * `MAX_KEPT_ITEMS_CHARS` of it.
 */
import { estimateTokens } from '../../src/internal';
import { runAgentLoop } from '../../src';
import type { ChatCompletionAssistantMessageParam, CompressContextEvent } from '../../src';
import { MAX_KEPT_ITEMS_CHARS } from '../../src/constants';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

/** A reasoning item as OpenAI returns it with `store: false`: a readable summary and an opaque encrypted blob. */
function reasoningItem(id: string, summary: string, encryptedChars: number): Record<string, unknown> {
  return {
    type: 'reasoning',
    id,
    summary: [{ type: 'summary_text', text: summary }],
    encrypted_content: `gAAAA${'Q'.repeat(encryptedChars)}`,
  };
}

describe('kept Responses items in the context', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('the estimate counts kept reasoning and hosted items, refusals and custom calls', () => {
    const bare: ChatCompletionAssistantMessageParam = { role: 'assistant', content: 'ok' };
    const blob = 'Q'.repeat(40_000);
    const withItems: ChatCompletionAssistantMessageParam = {
      ...bare,
      reasoning_items: [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: blob }],
      output_items: [{ type: 'web_search_call', id: 'ws_1', action: { query: blob } }],
    };
    // 80,000 ASCII characters of JSON are about 20,000 tokens.
    expect(estimateTokens(withItems) - estimateTokens(bare)).toBeGreaterThan(20_000);
    expect(estimateTokens({ ...bare, refusal: blob })).toBeGreaterThan(10_000);
    const custom: ChatCompletionAssistantMessageParam = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'sql', input: blob } }],
    };
    expect(estimateTokens(custom)).toBeGreaterThan(10_000);
  });

  it('compression fires on kept reasoning and reads its summary, not its encrypted part', async () => {
    const summaries: string[] = [];
    server.enqueue(
      // Each tool turn brings ~5,000 tokens of encrypted reasoning and almost no text.
      { items: [reasoningItem('rs_1', 'Paris first, then Tokyo.', 20_000)], toolCalls: [{ name: 'lookup' }] },
      { items: [reasoningItem('rs_2', 'Now Tokyo.', 20_000)], toolCalls: [{ name: 'lookup' }] },
      (request) => {
        summaries.push(JSON.stringify(request.body.messages));
        return { text: 'Asked for Paris; the lookup answered.' };
      },
      { text: 'Done.' },
    );
    const events: CompressContextEvent[] = [];
    const result = await runAgentLoop({
      client: server.client(),
      wire: 'responses',
      body: { model: 'm', messages: [user('Weather in Paris, then Tokyo?')] },
      tools: [fakeTool('lookup', () => ({ response: 'sunny' }))],
      compression: { maxContext: 8_000, reservedTokens: 0 },
      onAfterCompressContext: (event) => events.push(event),
    });
    expect(result.stopReason).toBe('completed');
    expect(events).toHaveLength(1);
    expect(events[0].beforeTokens).toBeGreaterThan(10_000);
    // The summary request saw what the model thought, and none of the opaque blob.
    expect(summaries[0]).toContain('[reasoning] Paris first, then Tokyo.');
    expect(summaries[0]).not.toContain('QQQQ');
    // The request after it no longer carries the summarised turn's reasoning item, and still carries the last one.
    const last = JSON.stringify(server.requests.at(-1)?.rawBody);
    expect(last).not.toContain('rs_1');
    expect(last).toContain('rs_2');
  });

  it.each([true, false])('one reply keeps at most MAX_KEPT_ITEMS_CHARS of items (stream: %s)', async (stream) => {
    const third = Math.floor(MAX_KEPT_ITEMS_CHARS / 3);
    server.enqueue(
      {
        items: [
          reasoningItem('rs_a', 'a', third),
          { id: 'ws_a', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q' } },
          reasoningItem('rs_b', 'b', third),
          // Past the cap: left out of the history, the reply still read.
          reasoningItem('rs_c', 'c', third),
          { id: 'ws_b', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'r' } },
        ],
        toolCalls: [{ name: 'lookup' }],
      },
      { text: 'Done.' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      wire: 'responses',
      body: { model: 'm', messages: [user('go')], stream },
      tools: [fakeTool('lookup', () => ({ response: 'sunny' }))],
    });
    expect(result.stopReason).toBe('completed');
    const kept = (result.assistantMessages[0] as ChatCompletionAssistantMessageParam).output_items ?? [];
    expect(kept.map((item) => item.id)).toEqual(['rs_a', 'ws_a', 'rs_b', 'ws_b']);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(MAX_KEPT_ITEMS_CHARS);
    const sent = server.requests[1].rawBody as { input: { id?: string }[] };
    expect(sent.input.filter((item) => item.id === 'rs_c')).toEqual([]);
  });
});
