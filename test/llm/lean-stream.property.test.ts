import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import OpenAI from 'openai';
import { createLLMResponse, type LLMResponse, type StreamParser } from '../../src/llm/request';
import { stretchedTimeout } from '../helpers/stretched-timeout';

// Hundreds of generated streams over real HTTP: the file's tests may take minutes on a busy machine.
jest.setTimeout(stretchedTimeout(120_000));

/**
 * The lean stream reader against the openai SDK's own: for random streams, cut into random reads (anywhere, inside
 * multi-byte characters too) and served over real HTTP, both give the same response and the same hooks.
 */

type Ending = 'done' | 'end' | 'cut' | 'done-then-junk' | 'done-then-cut';
type Abort = { kind: 'none' } | { kind: 'isAborted'; atChunk: number } | { kind: 'signal'; atHook: number };

type Case = {
  events: string[];
  /** Bytes where a cut ends the body early (for 'cut'), as a fraction of the body. */
  cutAt: number;
  ending: Ending;
  crlf: boolean;
  /** Read sizes the body is handed over in (cycled). */
  reads: number[];
  abort: Abort;
};

const textArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('é', '日本語', '👍🏽', '<think>', '</think>', '<th', 'ink>', ' ', '\n', 'data: x\n\n', '\u2028'),
);

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  JSON.stringify({
    id: 'chatcmpl-diff',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });

const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/** One SSE event's data (or a whole malformed block, when it starts with `!`). */
const eventArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: textArb.map((content) => chunk({ content })) },
  { weight: 3, arbitrary: textArb.map((reasoning_content) => chunk({ reasoning_content })) },
  { weight: 1, arbitrary: textArb.map((reasoning) => chunk({ reasoning })) },
  {
    weight: 1,
    arbitrary: textArb.map((text) => chunk({ reasoning_details: [{ type: 'reasoning.text', index: 0, text }] })),
  },
  {
    weight: 5,
    arbitrary: fc
      .record({
        index: fc.nat({ max: 2 }),
        id: fc.option(fc.constantFrom('call_a', 'call_b', 'call_c', ''), { nil: undefined }),
        name: fc.option(fc.constantFrom('get_weather', 'search', ''), { nil: undefined }),
        args: fc.option(textArb, { nil: undefined }),
        extra: fc.boolean(),
      })
      .map(({ index, id, name, args, extra }) =>
        chunk({
          tool_calls: [
            {
              index,
              ...(id !== undefined ? { id, type: 'function' } : {}),
              function: { ...(name !== undefined ? { name } : {}), ...(args !== undefined ? { arguments: args } : {}) },
              ...(extra ? { extra_content: { google: { thought_signature: 'sig' } } } : {}),
            },
          ],
        }),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom('stop', 'tool_calls', 'length').map((r) => chunk({}, r)) },
  { weight: 1, arbitrary: fc.constant(chunk({}, 'stop', { usage })) },
  { weight: 1, arbitrary: fc.constant(JSON.stringify({ id: 'chatcmpl-diff', choices: [], usage })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', code: 'boom' } }),
      JSON.stringify({ error: 'overloaded' }),
      '{"id": "x", "choices": [',
      'not json',
      '',
      'null',
      '5',
      '"text"',
      '!: keep-alive comment\n',
      '!retry: 100\nid: 7\n',
      '!unknown-field: value\n',
      '!event: thread.message\ndata: {"x": 1}\n\n',
      '!event: message\ndata: ' + chunk({ content: 'named' }) + '\n\n',
      '!data: ' + chunk({ content: 'two' }) + '\ndata: \n\n',
      '!data:' + chunk({ content: 'nospace' }) + '\n\n',
    ),
  },
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  events: fc.array(eventArb, { maxLength: 14 }),
  cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
  ending: fc.constantFrom<Ending>('done', 'done', 'done', 'end', 'cut', 'done-then-junk', 'done-then-cut'),
  crlf: fc.boolean(),
  reads: fc.array(fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 2048 })), {
    minLength: 1,
    maxLength: 6,
  }),
  abort: fc.oneof(
    { weight: 4, arbitrary: fc.constant<Abort>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.nat({ max: 12 }).map<Abort>((atChunk) => ({ kind: 'isAborted', atChunk })) },
    { weight: 1, arbitrary: fc.nat({ max: 12 }).map<Abort>((atHook) => ({ kind: 'signal', atHook })) },
  ),
});

function bodyOf(c: Case): { bytes: Buffer; cut: boolean } {
  const nl = c.crlf ? '\r\n' : '\n';
  const block = (data: string) => (data.startsWith('!') ? data.slice(1).replace(/\n/g, nl) : `data: ${data}${nl}${nl}`);
  let text = c.events.map(block).join('');
  if (c.ending !== 'end' && c.ending !== 'cut') text += block('[DONE]');
  if (c.ending === 'done-then-junk') text += block(chunk({ content: 'after done' })) + block('not json');
  const bytes = Buffer.from(text);
  if (c.ending === 'cut' || c.ending === 'done-then-cut') {
    const junk = c.ending === 'done-then-cut' ? Buffer.from(`data: {"late"`) : Buffer.alloc(0);
    const whole = Buffer.concat([bytes, junk]);
    const at = c.ending === 'cut' ? Math.floor(c.cutAt * whole.length) : whole.length;
    return { bytes: whole.subarray(0, at), cut: true };
  }
  return { bytes, cut: false };
}

/** Hands the real body over in the case's read sizes, whatever TCP did; a body error comes after its bytes. */
function rechunk(body: ReadableStream<Uint8Array>, reads: number[]): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let buffered = Buffer.alloc(0);
  let ended = false;
  let failure: unknown;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const want = reads[turn++ % reads.length];
      while (!ended && failure === undefined && buffered.length < want) {
        try {
          const { done, value } = await reader.read();
          if (done) ended = true;
          else buffered = Buffer.concat([buffered, value]);
        } catch (error) {
          failure = error;
        }
      }
      if (buffered.length > 0) {
        controller.enqueue(new Uint8Array(buffered.subarray(0, want)));
        buffered = buffered.subarray(want);
      } else if (failure !== undefined) controller.error(failure);
      else controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

let server: Server;
let baseURL: string;
let current: { bytes: Buffer; cut: boolean } = { bytes: Buffer.alloc(0), cut: false };

beforeAll(async () => {
  server = createServer({ noDelay: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const { bytes, cut } = current;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!cut) res.end(bytes);
      else res.write(bytes, () => res.socket?.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Observed = { response: Record<string, unknown>; hooks: string[] };

const describeError = (error: unknown) =>
  error instanceof Error
    ? {
        name: error.constructor.name,
        message: error.message,
        ...(error instanceof OpenAI.APIError
          ? { status: error.status, code: error.code, type: error.type, error: error.error }
          : {}),
      }
    : { value: error };

const providerIds = new Set(['call_a', 'call_b', 'call_c']);
/** A call id the stream sent, or `<generated>` for one agentcall made up (random in each request). */
const knownId = (id: string) => (providerIds.has(id) ? id : '<generated>');
const withKnownId = <T extends { id: string }>(call: T): T => ({ ...call, id: knownId(call.id) });

/** The response without what differs between any two requests (timings, generated ids). */
function comparable(res: LLMResponse): Record<string, unknown> {
  const { ms, firstChunkMs, requestId, error, ...rest } = res;
  return {
    ...rest,
    toolCalls: rest.toolCalls.map(withKnownId),
    ...(rest.assistantMessage
      ? {
          assistantMessage: {
            ...rest.assistantMessage,
            tool_calls: rest.assistantMessage.tool_calls?.map(withKnownId),
          },
        }
      : {}),
    requestId: requestId === 'chatcmpl-diff' ? requestId : '<generated>',
    hasMs: typeof ms === 'number',
    hasFirstChunk: firstChunkMs !== undefined,
    ...(error !== undefined ? { error: describeError(error) } : {}),
  };
}

async function observe(c: Case, streamParser: StreamParser): Promise<Observed> {
  const client = new OpenAI({
    apiKey: 'test',
    baseURL,
    maxRetries: 0,
    logLevel: 'off',
    fetch: async (url: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(url, init);
      return new Response(rechunk(response.body!, c.reads), { status: response.status, headers: response.headers });
    },
  });
  const hooks: string[] = [];
  const controller = new AbortController();
  let chunks = -1;
  const record = (entry: string) => {
    hooks.push(entry);
    if (c.abort.kind === 'signal' && hooks.length === c.abort.atHook + 1) controller.abort();
  };
  const res = await createLLMResponse({
    client,
    streamParser,
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    abortSignal: controller.signal,
    isAborted: () => c.abort.kind === 'isAborted' && chunks++ >= c.abort.atChunk,
    onStreaming: ({ text }) => record(`text:${text}`),
    onReasoning: ({ text }) => record(`reasoning:${text}`),
    onToolCall: ({ call }) => record(`call:${JSON.stringify(withKnownId(call))}`),
    onToolParam: ({ call, argsDelta }) => record(`param:${knownId(call.id)}:${argsDelta}`),
  });
  return {
    response: comparable(res),
    hooks,
  };
}

describe('lean stream reader', () => {
  it('gives the same responses and hooks as the SDK stream parser, for random streams cut into random reads', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        current = bodyOf(c);
        const sdk = await observe(c, 'sdk');
        const lean = await observe(c, 'lean');
        expect(lean).toEqual(sdk);
      }),
      { seed: Number(process.env.STREAM_DIFF_SEED ?? 1729), numRuns: Number(process.env.STREAM_DIFF_RUNS ?? 500) },
    );
  });
});
