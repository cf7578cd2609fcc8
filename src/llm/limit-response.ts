import { ResponseTooLargeError } from '../errors/response-too-large.error';

/** Size caps on what a model endpoint may send for one request. */
export type ResponseLimits = {
  /** Most bytes of one response body. */
  maxResponseBytes: number;
  /** Longest line of one response body (for a stream: one SSE line), in bytes. */
  maxLineBytes: number;
};

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NEWLINE = 10;
const limited = new WeakMap<object, { limits: ResponseLimits; client: object }>();

/**
 * A copy of `client` (made once per client and limits) whose responses error with {@link ResponseTooLargeError}
 * once the body passes `maxResponseBytes`, or a line passes `maxLineBytes`. The check runs on the raw bytes, before
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
  return a.maxResponseBytes === b.maxResponseBytes && a.maxLineBytes === b.maxLineBytes;
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
 * Counts the bytes of one response as they are read, against {@link ResponseLimits}.
 *
 * @internal
 */
export class ResponseByteCounter {
  private total = 0;
  private line = 0;

  constructor(private readonly limits: ResponseLimits) {}

  /** Counts `chunk`: the error to end the response with once it passes a limit, else undefined. */
  add(chunk: Uint8Array): ResponseTooLargeError | undefined {
    const { maxResponseBytes, maxLineBytes } = this.limits;
    this.total += chunk.byteLength;
    this.line = nextLineLength(chunk, this.line, maxLineBytes);
    if (this.total > maxResponseBytes) return new ResponseTooLargeError(maxResponseBytes, 'response');
    if (this.line > maxLineBytes) return new ResponseTooLargeError(maxLineBytes, 'SSE line');
    return undefined;
  }
}

/**
 * Bytes of the line still open after `chunk`, or `Infinity` when a line in it passed `max`. Only a chunk longer
 * than `max` can hold a whole line longer than `max`, so the usual small chunk costs two native searches.
 */
function nextLineLength(chunk: Uint8Array, open: number, max: number): number {
  const first = chunk.indexOf(NEWLINE);
  if (first === -1) return open + chunk.byteLength;
  if (open + first > max) return Infinity;
  if (chunk.byteLength > max) {
    for (let start = first + 1, end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (end - start > max) return Infinity;
      start = end + 1;
    }
  }
  return chunk.byteLength - chunk.lastIndexOf(NEWLINE) - 1;
}
