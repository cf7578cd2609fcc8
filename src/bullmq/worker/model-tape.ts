import type { LLMClient } from '../../index';
import { isEventStream } from '../../internal';
import type { QueuedRunClient } from '../types';

type Recording = { contentType: string; chunks: Uint8Array[]; saved: boolean };

/** A journaled response as a replay gives it back. */
type Recorded = { contentType: string; body: string };

/** The field a recorded response is kept under in the journal: per sequence number and per response. */
export function tapeField(seq: number, index: number): string {
  return `tape:${seq}:${index}`;
}

/**
 * Records the model's responses of the turn in flight, and replays the responses an interrupted attempt of the
 * same turn had journaled. A retried turn thus sees the very tool calls (and call ids) the first attempt saw, so the
 * journal can answer the calls that already ran instead of asking the model again.
 *
 * Responses are counted by success: a request the SDK retried after an error keeps its position.
 */
export class ModelTape {
  private readonly recordings: Recording[] = [];
  private count = 0;
  /** Whether the response the loop is reading now came from the journal. */
  replaying = false;

  constructor(
    private seq: number,
    private replay: ReadonlyMap<number, Recorded>,
  ) {}

  /** The journaled responses of the turn at `seq`, from the journal hash. */
  static fromJournal(seq: number, journal: ReadonlyMap<string, string>): ModelTape {
    const replay = new Map<number, Recorded>();
    const prefix = `tape:${seq}:`;
    for (const [field, value] of journal) {
      if (field.startsWith(prefix)) replay.set(Number(field.slice(prefix.length)), decodeRecording(value));
    }
    return new ModelTape(seq, replay);
  }

  /** Record the turn at `seq` from scratch: the one before is in its checkpoint, its responses are not needed. */
  rebase(seq: number): void {
    this.seq = seq;
    this.recordings.length = 0;
    this.count = 0;
    this.replay = new Map();
    this.replaying = false;
  }

  /**
   * A client that talks through this tape, until `release` (when the job is done with it); `client`'s own `fetch`, if
   * it has one, still makes the requests. Wrapped clients are kept for the next jobs: building one per job costs more
   * than the job's own requests.
   */
  lend(client: QueuedRunClient): { client: LLMClient; release: () => void } {
    const taped = IDLE.get(client)?.pop() ?? wrap(client);
    taped.tape = this;
    return {
      client: taped.client,
      release: () => {
        taped.tape = undefined;
        let idle = IDLE.get(client);
        if (!idle) IDLE.set(client, (idle = []));
        if (idle.length < MAX_IDLE_CLIENTS) idle.push(taped);
      },
    };
  }

  /** Whether a response was recorded since the last {@link ModelTape.takeUnsaved}. */
  hasUnsaved(): boolean {
    return this.recordings.some((recording) => recording !== undefined && !recording.saved);
  }

  /**
   * Responses recorded since the last call, as journal fields. Called when a tool has finished, so every
   * response the loop has read is whole (the SDK may stop reading at `[DONE]`, before the body ends).
   */
  takeUnsaved(): Record<string, string> {
    const fields: Record<string, string> = {};
    this.recordings.forEach((recording, index) => {
      if (!recording || recording.saved) return;
      recording.saved = true;
      fields[tapeField(this.seq, index)] = encodeRecording(recording);
    });
    return fields;
  }

  /** Answer a request from the journal, or make it with `base` and record its response as it is read. */
  async fetch(base: typeof fetch, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    const saved = this.replay.get(this.count);
    this.replaying = saved !== undefined;
    if (saved) {
      this.count++;
      return new Response(saved.body, { status: 200, headers: { 'content-type': saved.contentType } });
    }
    const response = await base(input, init);
    if (!response.ok || !response.body) return response;
    const recording: Recording = {
      contentType: response.headers.get('content-type') ?? 'application/json',
      chunks: [],
      saved: false,
    };
    this.recordings[this.count++] = recording;
    return tapped(response, recording.chunks);
  }
}

/**
 * A response as the journal keeps it: its content type, a line break, then its body as read. Not JSON: escaping a
 * whole event stream (every quote of every chunk) cost more than the rest of the write.
 */
function encodeRecording({ contentType, chunks }: Recording): string {
  return `${contentType.replace(/[\r\n]/g, ' ')}\n${Buffer.concat(chunks).toString()}`;
}

/** A journaled response, as {@link encodeRecording} wrote it (or as JSON, as journals written before it did). */
function decodeRecording(value: string): Recorded {
  if (value.startsWith('{"contentType":')) {
    try {
      return JSON.parse(value) as Recorded;
    } catch {
      // An endpoint's content type that only looked like it.
    }
  }
  const end = value.indexOf('\n');
  return { contentType: value.slice(0, end), body: value.slice(end + 1) };
}

/**
 * `response`, each chunk read from its body kept in `chunks`. An event stream is read only through `body`, by the
 * core's reader and the SDK's (both take a reader from `getReader`), so the response the transport gave stays the one
 * returned, headers and all, with a {@link RecordedBody} as its `body`: a new `Response` per model response, its
 * headers copied, cost a queued run 3% of its CPU, and a `ReadableStream` of its own per response 5 to 8%
 * (`docs/queue.md`, "Measured cost"). Any other body may be read by `json()` or `text()`, which see only a new
 * `Response` built around a stream; so does a response that takes no property (a custom `fetch` may give a frozen
 * one).
 */
function tapped(response: Response, chunks: Uint8Array[]): Response {
  const body = response.body!;
  // Labelled as the core reads it: its readers take an event stream through `body`.
  if (
    isEventStream(response) &&
    Reflect.defineProperty(response, 'body', { value: new RecordedBody(body, chunks), configurable: true })
  )
    return response;
  return new Response(recorded(body, chunks), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * An event stream's body as its readers take it: a reader from `getReader`, whose reads are kept in `chunks` on
 * their way. It is not a stream of its own: anything else asked of it (`pipeTo`, `tee`, `for await`) is missing, so a
 * reader that would bypass the recording fails loudly instead.
 */
class RecordedBody {
  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly chunks: Uint8Array[],
  ) {}

  get locked(): boolean {
    return this.body.locked;
  }

  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    const reader = this.body.getReader();
    const chunks = this.chunks;
    return {
      closed: reader.closed,
      read: () =>
        reader.read().then((result) => {
          if (!result.done) chunks.push(result.value);
          return result;
        }),
      releaseLock: () => reader.releaseLock(),
      cancel: (reason?: unknown) => reader.cancel(reason),
    };
  }

  cancel(reason?: unknown): Promise<void> {
    return this.body.cancel(reason);
  }
}

/** A client wrapped to talk through a tape, and the tape it talks through while a job has it. */
type TapedClient = { client: LLMClient; tape?: ModelTape };

/** Wrapped clients no job has, per client a setup gave (a setup that makes a client per job gets none back). */
const IDLE = new WeakMap<QueuedRunClient, TapedClient[]>();
/** Wrapped clients kept per client: about the jobs a process runs at once. */
const MAX_IDLE_CLIENTS = 64;

function wrap(client: QueuedRunClient): TapedClient {
  // The SDK keeps its construction options; a custom fetch given there must stay the transport.
  const base = (client as unknown as { _options?: { fetch?: typeof fetch } })._options?.fetch ?? fetch;
  const taped: TapedClient = { client };
  taped.client = client.withOptions({
    fetch: (input, init) => {
      if (!taped.tape) throw new Error('A queued run used its model client after its job ended');
      return taped.tape.fetch(base, input, init);
    },
  });
  return taped;
}

/**
 * `body` as a stream of its own, for a `Response` built around it, keeping each chunk read from it in `chunks`. One
 * stream that pulls from the body's reader: a piped `TransformStream` costs two streams and a pipe per response.
 */
function recorded(body: ReadableStream<Uint8Array>, chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        chunks.push(value);
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
