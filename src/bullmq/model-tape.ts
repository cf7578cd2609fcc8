import type { LLMClient } from '../index';
import type { QueuedRunClient } from './types';

type Recording = { contentType: string; chunks: Uint8Array[]; saved: boolean };

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
    private replay: ReadonlyMap<number, { contentType: string; body: string }>,
  ) {}

  /** The journaled responses of the turn at `seq`, from the journal hash. */
  static fromJournal(seq: number, journal: ReadonlyMap<string, string>): ModelTape {
    const replay = new Map<number, { contentType: string; body: string }>();
    const prefix = `tape:${seq}:`;
    for (const [field, value] of journal) {
      if (field.startsWith(prefix))
        replay.set(Number(field.slice(prefix.length)), JSON.parse(value) as { contentType: string; body: string });
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

  /** A client that talks through this tape; `client`'s own `fetch`, if it has one, still makes the requests. */
  wrap(client: QueuedRunClient): LLMClient {
    // The SDK keeps its construction options; a custom fetch given there must stay the transport.
    const base = (client as unknown as { _options?: { fetch?: typeof fetch } })._options?.fetch ?? fetch;
    return client.withOptions({ fetch: this.fetchThrough(base) });
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
      const body = Buffer.concat(recording.chunks).toString();
      fields[tapeField(this.seq, index)] = JSON.stringify({ contentType: recording.contentType, body });
    });
    return fields;
  }

  private fetchThrough(base: typeof fetch): typeof fetch {
    return async (input, init) => {
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
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            recording.chunks.push(chunk);
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }
}
