/**
 * The items the Responses wire keeps on an assistant message go back to the model as they are, so a state from
 * outside has them checked before anything is sent: `output_items` and `reasoning_items` entries, and the
 * `annotations` kept beside the text. A state the run itself returned resumes as it is.
 */
import { InvalidRunStateError, runAgentLoop, type RunState } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';

const WEB_SEARCH = {
  id: 'ws_1',
  type: 'web_search_call',
  status: 'completed',
  action: { type: 'search', query: 'weather paris' },
};
const REASONING = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Search.' }] };

describe('run state: kept Responses items', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  /** A state paused on an approval, whose last assistant message kept a reasoning item, a web search and a citation. */
  async function pausedState(): Promise<RunState> {
    server.enqueue({
      items: [REASONING, WEB_SEARCH],
      text: 'Paris, says the web.',
      annotations: [{ type: 'url_citation', url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 5 }],
      toolCalls: [{ id: 'c1', name: 'book' }],
    });
    const first = await runAgentLoop({
      client: server.client(),
      wire: 'responses',
      body: { model: 'm', messages: [user('Book Paris')] },
      tools: [fakeTool('book', () => ({ response: 'booked' }), { needsApproval: true })],
    });
    expect(first.stopReason).toBe('interactive');
    return JSON.parse(JSON.stringify(first.state)) as RunState;
  }

  async function resume(state: RunState) {
    const before = server.requests.length;
    server.enqueue({ text: 'Booked.' });
    const result = await runAgentLoop({
      client: server.client(),
      wire: 'responses',
      body: { model: 'm', messages: [] },
      tools: [fakeTool('book', () => ({ response: 'booked' }), { needsApproval: true })],
      resumeFrom: state,
      decisions: { c1: { approve: true } },
    });
    return { result, sent: server.requests.length - before };
  }

  it('a state the run returned resumes and sends its items back once', async () => {
    const { result, sent } = await resume(await pausedState());
    expect(result.stopReason).toBe('completed');
    expect(sent).toBe(1);
    const input = (server.requests.at(-1)?.rawBody as { input: { id?: string }[] }).input;
    expect(input.filter((item) => item.id === 'ws_1')).toHaveLength(1);
    expect(input.filter((item) => item.id === 'rs_1')).toHaveLength(1);
  });

  const forgeries: [string, (assistant: Record<string, unknown>) => void, string][] = [
    ['output_items not a list', (a) => (a.output_items = 'items'), 'output_items'],
    ['an item without a type', (a) => (a.output_items = [{ id: 'x' }]), 'output_items[0].type'],
    ['an item with a numeric id', (a) => (a.output_items = [{ type: 'web_search_call', id: 7 }]), 'output_items[0].id'],
    ['a reasoning item whose summary is text', (a) => (a.output_items = [{ ...REASONING, summary: 'x' }]), 'summary'],
    [
      'a reasoning summary part without text',
      (a) => (a.output_items = [{ ...REASONING, summary: [{ type: 'summary_text' }] }]),
      'summary[0].text',
    ],
    [
      'encrypted reasoning that is not text',
      (a) => (a.output_items = [{ ...REASONING, encrypted_content: { a: 1 } }]),
      'encrypted_content',
    ],
    ['a hosted item among reasoning_items', (a) => (a.reasoning_items = [WEB_SEARCH]), 'reasoning_items[0].type'],
    ['an annotation of another kind', (a) => (a.annotations = [{ type: 'file_citation' }]), 'annotations[0].type'],
  ];

  it.each(forgeries)('%s ends the run before any request, naming where', async (_name, forge, where) => {
    const state = await pausedState();
    const assistant = [...state.messages].reverse().find((m) => m.role === 'assistant') as unknown as Record<
      string,
      unknown
    >;
    expect(assistant.output_items).toBeDefined();
    forge(assistant);
    const { result, sent } = await resume(state);
    expect(result.stopReason).toBe('error');
    expect(result.error).toBeInstanceOf(InvalidRunStateError);
    expect((result.error as InvalidRunStateError).path).toContain(where);
    expect(sent).toBe(0);
  });
});
