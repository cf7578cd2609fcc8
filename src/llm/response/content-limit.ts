import { ResponseTooLargeError } from '../../errors/response-too-large.error';

/** A part of a model response that is kept as it arrives, whatever wire brought it. */
export type ContentKind = NonNullable<ResponseTooLargeError['part']>;

/**
 * Counts what one model response accumulates (answer text, reasoning, tool-call names, ids, arguments and the
 * fields a provider adds to them) against `maxResponseBytes`, in UTF-8 bytes. Only what is kept counts, never
 * the envelope around it: a 2 MB answer streamed a few characters per event is 2 MB here, however many
 * megabytes of SSE carried it. Wire-agnostic: every reader feeds it the text it is about to keep.
 *
 * @internal
 */
export class ContentLimit {
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes counted so far; it only grows, so a reader can tell a chunk that brought something new. */
  get total(): number {
    return this.bytes;
  }

  /** Counts `text` of `kind`: the error to end the response with once the total passes the cap, else undefined. */
  add(kind: ContentKind, text: string): ResponseTooLargeError | undefined {
    this.bytes += Buffer.byteLength(text, 'utf8');
    return this.bytes > this.maxBytes ? new ResponseTooLargeError(this.maxBytes, 'response', kind) : undefined;
  }
}
