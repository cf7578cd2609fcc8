import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ModelTape, tapeField } from '../../src/bullmq/worker/model-tape';

const SSE = 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n';
const JSON_BODY = '{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}';

/** The body's text, read as the core's stream reader reads it: through `getReader`. */
async function readBody(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let read = await reader.read(); !read.done; read = await reader.read())
    text += decoder.decode(read.value, { stream: true });
  return text;
}

/** What a journal keeps of the tape's recordings: the fields `takeUnsaved` gave, as the store would hand them back. */
function journalOf(tape: ModelTape): Map<string, string> {
  return new Map(Object.entries(tape.takeUnsaved()));
}

describe('ModelTape', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const json = req.url === '/json';
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'text/event-stream', 'x-request-id': 'req-1' });
      // The event stream arrives in two writes, so the tape must keep more than one chunk.
      if (json) return res.end(JSON_BODY);
      res.write(SSE.slice(0, 20));
      setTimeout(() => res.end(SSE.slice(20)), 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('hands back the event stream the transport gave, headers and all, and records what is read from its body', async () => {
    const tape = new ModelTape(3, new Map());
    let given: Response | undefined;
    const base: typeof fetch = async (input, init) => (given = await fetch(input, init));

    const response = await tape.fetch(base, `${url}/sse`);
    expect(response).toBe(given);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await readBody(response)).toBe(SSE);

    const journal = journalOf(tape);
    // Kept as read, not escaped into JSON: the content type, a line break, the body.
    expect(journal.get(tapeField(3, 0))).toBe(`text/event-stream\n${SSE}`);
    // A retried attempt of the same turn is answered from the journal, without a request.
    const replay = ModelTape.fromJournal(3, journal);
    const replayed = await replay.fetch(() => Promise.reject(new Error('no request on a replay')), `${url}/sse`);
    expect(replay.replaying).toBe(true);
    expect(await replayed.text()).toBe(SSE);
  });

  it("records an event stream read by the openai SDK's own stream iterator", async () => {
    const tape = new ModelTape(1, new Map());
    const { client, release } = tape.lend(new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test', maxRetries: 0 }));
    // The client a tape lends is typed as the core's `LLMClient`, whose `create` covers both kinds of request.
    const stream = (await client.chat.completions.create({
      model: 'm',
      messages: [],
      stream: true,
    })) as AsyncIterable<ChatCompletionChunk>;
    const texts: string[] = [];
    for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    release();
    expect(texts).toEqual(['hi']);
    expect(journalOf(tape).get(tapeField(1, 0))).toBe(`text/event-stream\n${SSE}`);
  });

  it('hands back a body that has no stream methods besides a reader, so no reader can pass the recording by', async () => {
    const tape = new ModelTape(0, new Map());
    const response = await tape.fetch(fetch, `${url}/sse`);
    expect((response.body as { tee?: unknown }).tee).toBeUndefined();
    expect((response.body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator]).toBeUndefined();
    await response.body!.cancel();
    expect(response.body!.locked).toBe(false);
  });

  it('records a body read by json() (a request that is not streamed)', async () => {
    const tape = new ModelTape(0, new Map());
    const response = await tape.fetch(fetch, `${url}/json`);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toEqual(JSON.parse(JSON_BODY));
    const journal = journalOf(tape);
    expect(journal.get(tapeField(0, 0))).toBe(`application/json\n${JSON_BODY}`);
    const replayed = await ModelTape.fromJournal(0, journal).fetch(() => Promise.reject(new Error('replay')), url);
    expect(replayed.headers.get('content-type')).toBe('application/json');
    expect(await replayed.json()).toEqual(JSON.parse(JSON_BODY));
  });

  it('replays what a journal written as JSON holds, and a content type that only looks like it', async () => {
    const legacy = new Map([[tapeField(2, 0), JSON.stringify({ contentType: 'text/event-stream', body: SSE })]]);
    const replayed = await ModelTape.fromJournal(2, legacy).fetch(() => Promise.reject(new Error('replay')), url);
    expect(replayed.headers.get('content-type')).toBe('text/event-stream');
    expect(await replayed.text()).toBe(SSE);

    const odd = new Map([[tapeField(2, 0), `{"contentType":x\n${SSE}`]]);
    const oddReplay = await ModelTape.fromJournal(2, odd).fetch(() => Promise.reject(new Error('replay')), url);
    expect(oddReplay.headers.get('content-type')).toBe('{"contentType":x');
    expect(await oddReplay.text()).toBe(SSE);
  });

  it('records an event stream the transport gave frozen, through a response of its own', async () => {
    const tape = new ModelTape(0, new Map());
    const frozen: typeof fetch = async (input, init) => Object.freeze(await fetch(input, init));
    const response = await tape.fetch(frozen, `${url}/sse`);
    expect(Object.isFrozen(response)).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.text()).toBe(SSE);
    expect(journalOf(tape).get(tapeField(0, 0))).toBe(`text/event-stream\n${SSE}`);
  });
});
