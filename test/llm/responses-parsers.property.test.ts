import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import OpenAI from 'openai';
import { createLLMResponse, type LLMResponse, type StreamParser } from '../../src/llm/request';
import { responseEvents, sse, type StreamedItem } from '../helpers/responses-server';
import { stretchedTimeout } from '../helpers/stretched-timeout';

// Hundreds of generated streams over real HTTP: the file's tests may take minutes on a busy machine.
jest.setTimeout(stretchedTimeout(120_000));

/**
 * The Responses wire read by the lean reader and by the openai SDK's own iterator: for random event streams (text,
 * reasoning, function calls with or without call_id and with arguments in any number of deltas, unknown items, every
 * ending), cut into random reads and served over real HTTP, both give the same response and the same hooks.
 */

type Ending = 'response.completed' | 'response.incomplete' | 'response.failed' | 'error' | 'none' | 'cut';
type Case = { items: StreamedItem[]; ending: Ending; cutAt: number; reads: number[] };

const textArb = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('é', '日本語', '👍🏽', '<think>', '</think>', '\n', 'data: x\n\n', '\u2028'),
);
const piecesArb = fc.array(textArb, { maxLength: 5 });

const itemArb: fc.Arbitrary<StreamedItem> = fc.oneof(
  { weight: 3, arbitrary: piecesArb.map((text): StreamedItem => ({ type: 'message', text })) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        call_id: fc.option(fc.constantFrom('call_a', 'call_b', ''), { nil: undefined }),
        name: fc.constantFrom('get_weather', 'search', ''),
        args: piecesArb,
      })
      .map((call): StreamedItem => ({ type: 'function_call', ...call })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ summary: piecesArb, encrypted: fc.boolean() })
      .map(({ summary, encrypted }): StreamedItem => ({
        type: 'reasoning',
        id: 'rs_x',
        summary,
        ...(encrypted && { encrypted_content: 'enc' }),
      })),
  },
  { weight: 1, arbitrary: fc.constant<StreamedItem>({ type: 'web_search_call', id: 'ws_1', status: 'completed' }) },
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  items: fc.array(itemArb, { maxLength: 5 }),
  ending: fc.constantFrom<Ending>(
    'response.completed',
    'response.completed',
    'response.incomplete',
    'response.failed',
    'error',
    'none',
    'cut',
  ),
  cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
  reads: fc.array(fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 2048 })), {
    minLength: 1,
    maxLength: 5,
  }),
});

function bodyOf(c: Case): { bytes: Buffer; cut: boolean } {
  const end = c.ending === 'error' || c.ending === 'cut' ? 'none' : c.ending;
  const events = responseEvents(c.items, { end, error: { code: 'server_error', message: 'failed' } });
  if (c.ending === 'error') events.push({ type: 'error', code: 'boom', message: 'in-band', param: null });
  const bytes = Buffer.from(sse(events));
  if (c.ending !== 'cut') return { bytes, cut: false };
  return { bytes: bytes.subarray(0, Math.floor(c.cutAt * bytes.length)), cut: true };
}

/** Hands the real body over in the case's read sizes, whatever TCP did. */
function rechunk(body: ReadableStream<Uint8Array>, reads: number[]): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let buffered = Buffer.alloc(0);
  let ended = false;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const want = reads[turn++ % reads.length];
      while (!ended && buffered.length < want) {
        const { done, value } = await reader.read();
        if (done) ended = true;
        else buffered = Buffer.concat([buffered, value]);
      }
      if (buffered.length > 0) {
        controller.enqueue(new Uint8Array(buffered.subarray(0, want)));
        buffered = buffered.subarray(want);
      } else controller.close();
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

const providerIds = new Set(['call_a', 'call_b']);
const knownId = (id: string) => (providerIds.has(id) ? id : '<generated>');
const withKnownId = <T extends { id: string }>(call: T): T => ({ ...call, id: knownId(call.id) });

function comparable(res: LLMResponse): Record<string, unknown> {
  const { ms, firstChunkMs, error, ...rest } = res;
  return {
    ...rest,
    requestId: res.requestId === 'resp_1' ? 'resp_1' : '<generated>',
    toolCalls: rest.toolCalls.map(withKnownId),
    ...(rest.assistantMessage && {
      assistantMessage: { ...rest.assistantMessage, tool_calls: rest.assistantMessage.tool_calls?.map(withKnownId) },
    }),
    hasMs: typeof ms === 'number',
    hasFirstChunk: firstChunkMs !== undefined,
    ...(error !== undefined && {
      error:
        error instanceof Error
          ? { name: error.constructor.name, message: error.message, code: (error as { code?: unknown }).code }
          : { value: error },
    }),
  };
}

async function observe(c: Case, streamParser: StreamParser) {
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
  const res = await createLLMResponse({
    client,
    wire: 'responses',
    streamParser,
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    onStreaming: ({ text }) => hooks.push(`text:${text}`),
    onReasoning: ({ text }) => hooks.push(`reasoning:${text}`),
    onToolCall: ({ call }) => hooks.push(`call:${JSON.stringify(withKnownId(call))}`),
    onToolParam: ({ call, argsDelta }) => hooks.push(`param:${knownId(call.id)}:${argsDelta}`),
  });
  return { response: comparable(res), hooks };
}

describe('Responses wire: lean reader against the SDK iterator', () => {
  it('gives the same responses and hooks for random event streams cut into random reads', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        current = bodyOf(c);
        const sdk = await observe(c, 'sdk');
        const lean = await observe(c, 'lean');
        expect(lean).toEqual(sdk);
        // Every stream without its last event is an error, never a quiet success.
        if (c.ending === 'none' || c.ending === 'cut') expect(lean.response.finish_reason).toBe('error');
      }),
      { numRuns: Number(process.env.STREAM_DIFF_RUNS ?? 300) },
    );
  });
});
