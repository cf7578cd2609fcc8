/**
 * OpenAI sends reasoning summaries only when the body sets `reasoning.summary`, so the body types it; a summary
 * reaches `onReasoning` on the Responses wire as its deltas stream, and a summary that arrives whole (a response not
 * streamed, a reasoning item served without deltas) reaches it once, whole. Both stream parsers read the same.
 */
import { createLLMResponse, type LLMRequestBody } from '../../src';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

const SUMMARY = '**Planning** The user wants Paris; I will look it up.';

describe('reasoning summaries on the Responses wire', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer({ chunkSize: 7 });
  });
  afterEach(() => server.close());

  async function reasoningOf(reply: ScriptedReply, stream: boolean) {
    server.enqueue(reply);
    const seen: string[] = [];
    const body: LLMRequestBody = {
      model: 'gpt-test',
      messages: [user('Weather in Paris?')],
      stream,
      // Typed on the body: no cast, and it goes out as the Responses API reads it.
      reasoning: { effort: 'low', summary: 'auto' },
    };
    const res = await createLLMResponse({
      client: server.client(),
      wire: 'responses',
      body,
      onReasoning: ({ text }) => seen.push(text),
    });
    return { res, seen, sent: server.requests.at(-1)?.rawBody as { reasoning?: unknown } };
  }

  it('sends reasoning.effort and reasoning.summary as given', async () => {
    const { sent } = await reasoningOf({ text: 'ok' }, false);
    expect(sent.reasoning).toEqual({ effort: 'low', summary: 'auto' });
  });

  it('a streamed summary reaches onReasoning delta by delta, once in all', async () => {
    const { res, seen } = await reasoningOf({ reasoning: SUMMARY, text: 'Sunny.' }, true);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.join('')).toBe(SUMMARY);
    expect(res.reasoningText).toBe(SUMMARY);
  });

  it('a summary in a response not streamed reaches onReasoning once, whole', async () => {
    const { res, seen } = await reasoningOf({ reasoning: SUMMARY, text: 'Sunny.' }, false);
    expect(seen).toEqual([SUMMARY]);
    expect(res.reasoningText).toBe(SUMMARY);
    expect(res.answerText).toBe('Sunny.');
  });

  it.each([true, false])('a reasoning item served whole reaches onReasoning once, whole (stream: %s)', async (s) => {
    const item = {
      type: 'reasoning',
      id: 'rs_whole',
      summary: [
        { type: 'summary_text', text: 'First part. ' },
        { type: 'summary_text', text: 'Second part.' },
      ],
      encrypted_content: 'gAAAAopaque',
    };
    const { res, seen } = await reasoningOf({ items: [item], text: 'Sunny.' }, s);
    expect(seen).toEqual(['First part. Second part.']);
    expect(res.assistantMessage?.reasoning_items).toEqual([item]);
  });

  it('reasoning text of an Open Responses server (no summary) reaches onReasoning once, whole', async () => {
    const item = {
      type: 'reasoning',
      id: 'rs_text',
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Plain thoughts.' }],
    };
    const { seen } = await reasoningOf({ items: [item], text: 'Sunny.' }, false);
    expect(seen).toEqual(['Plain thoughts.']);
  });
});
