import { DEFAULT_MAX_RESPONSE_BYTES } from '../../constants';
import { ResponseTooLargeError } from '../../errors/response-too-large.error';

/** Size caps on what a model endpoint may send for one request. */
export type ResponseLimits = {
  /**
   * Most bytes the response may accumulate (answer, reasoning, tool calls), counted by `ContentLimit`;
   * here only the default of `maxWireBytes` is made from it.
   */
  maxResponseBytes: number;
  /** Longest line of one response body (for a stream: one SSE line), in bytes. */
  maxLineBytes: number;
  /** Most bytes of one response body on the wire, envelopes included. Default: {@link wireLimit} for a stream. */
  maxWireBytes?: number;
};

/** How many bytes of wire a stream may use per byte of `maxResponseBytes` (of at least the default 16 MiB). */
const STREAM_WIRE_FACTOR = 64;
/** JSON writes one byte of text as at most 6 (`\u0000`). */
const JSON_ESCAPE_FACTOR = 6;
const MIB = 1024 * 1024;

/**
 * The guard on the bytes of one response body on the wire, envelopes included, for a `maxResponseBytes` counted
 * on what the response accumulates. A stream is read piece by piece and its envelopes are not kept, so its guard
 * is only against a hostile server that streams envelopes without end (the content cap never trips on empty
 * chunks): 64 × `maxResponseBytes`, and never under 1 GiB, far above the 25–30 MB of SSE that a model spending a
 * 128k-token output budget sends. A whole JSON body is held in memory before it is read, so its guard is as
 * large as the content could be once escaped: 6 × `maxResponseBytes` + 1 MiB of envelope.
 *
 * @internal
 */
export function wireLimit(maxResponseBytes: number, stream: boolean): number {
  return stream
    ? STREAM_WIRE_FACTOR * Math.max(maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES)
    : JSON_ESCAPE_FACTOR * maxResponseBytes + MIB;
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const limited = new WeakMap<object, { limits: ResponseLimits; client: object }>();

/**
 * A copy of `client` (made once per client and limits) whose responses error with {@link ResponseTooLargeError}
 * once the body passes `maxWireBytes`, or a line passes `maxLineBytes`. The check runs on the raw bytes, before
 * the SDK decodes them: a hostile endpoint can neither fill memory nor make the SDK's line framing re-scan one
 * endless line. A client without `withOptions` (a stand-in object) is returned as it is.
 *
 * @internal
 */
export function withResponseLimits<C extends object>(client: C, limits: ResponseLimits): C {
  const cached = limited.get(client);
  if (cached && sameLimits(cached.limits, limits)) return cached.client as C;
  const withOptions: unknown = Reflect.get(client, 'withOptions');
  const inner: unknown = Reflect.get(client, 'fetch');
  if (typeof withOptions !== 'function' || typeof inner !== 'function' || hasPatchedCreate(client)) return client;
  const fetch = limitFetch((input, init) => (inner as Fetch)(input, init), limits);
  const wrapped = (withOptions as (options: { fetch: Fetch }) => C).call(client, { fetch });
  limited.set(client, { limits, client: wrapped });
  return wrapped;
}

/** A client whose `chat.completions.create` (or `responses.create`) was replaced on the instance: a copy would lose it. */
function hasPatchedCreate(client: object): boolean {
  const completions: unknown = Reflect.get(Reflect.get(client, 'chat') ?? {}, 'completions');
  const responses: unknown = Reflect.get(client, 'responses');
  return [completions, responses].some(
    (api) => typeof api === 'object' && api !== null && Object.hasOwn(api, 'create'),
  );
}

function sameLimits(a: ResponseLimits, b: ResponseLimits): boolean {
  return (
    a.maxResponseBytes === b.maxResponseBytes && a.maxLineBytes === b.maxLineBytes && a.maxWireBytes === b.maxWireBytes
  );
}

function limitFetch(inner: Fetch, limits: ResponseLimits): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    return new Response(limitBody(response.body, limits), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function limitBody(body: ReadableStream<Uint8Array>, limits: ResponseLimits): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const counter = new ResponseByteCounter(limits);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      const error = counter.add(value);
      if (error) {
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * Counts the bytes of one response body as they are read, against the wire guard and the line cap of
 * {@link ResponseLimits}. What the response accumulates is counted apart, by `ContentLimit`.
 *
 * @internal
 */
export class ResponseByteCounter {
  private total = 0;
  private line = 0;
  private readonly maxWireBytes: number;

  constructor(private readonly limits: ResponseLimits) {
    this.maxWireBytes = limits.maxWireBytes ?? wireLimit(limits.maxResponseBytes, true);
  }

  /** Counts `chunk`: the error to end the response with once it passes a limit, else undefined. */
  add(chunk: Uint8Array): ResponseTooLargeError | undefined {
    const { maxLineBytes } = this.limits;
    this.total += chunk.byteLength;
    this.line = nextLineLength(chunk, this.line, maxLineBytes);
    if (this.total > this.maxWireBytes) return new ResponseTooLargeError(this.maxWireBytes, 'wire');
    if (this.line > maxLineBytes) return new ResponseTooLargeError(maxLineBytes, 'SSE line');
    return undefined;
  }
}

/**
 * Bytes of the line still open after `chunk`, or `Infinity` when a line in it passed `max`. Only a chunk longer
 * than `max` can hold a whole line longer than `max`, so the usual small chunk costs two native searches. A
 * chunk without `\n` is measured by its `\r`s: SSE lets a stream end its lines with a lone `\r`.
 */
function nextLineLength(chunk: Uint8Array, open: number, max: number): number {
  let lineEnd = NEWLINE;
  let first = chunk.indexOf(NEWLINE);
  if (first === -1) {
    lineEnd = CARRIAGE_RETURN;
    first = chunk.indexOf(CARRIAGE_RETURN);
  }
  if (first === -1) return open + chunk.byteLength;
  if (open + first > max) return Infinity;
  if (chunk.byteLength > max) {
    for (let start = first + 1, end = chunk.indexOf(lineEnd, start); end !== -1; end = chunk.indexOf(lineEnd, start)) {
      if (end - start > max) return Infinity;
      start = end + 1;
    }
  }
  return chunk.byteLength - chunk.lastIndexOf(lineEnd) - 1;
}
