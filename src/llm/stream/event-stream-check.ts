import { MalformedResponseError } from '../../errors/malformed-response.error';
import { maskSecrets } from '../../text/mask-secrets';

/** Characters of the body the error quotes. */
const QUOTED_CHARS = 100;
/** Kept past the quote, so a secret that crosses the cut is still masked whole. */
const MASK_MARGIN = 100;

/** Whether `response` says it is an event stream (`text/event-stream`, any parameters). */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get('content-type');
  return type !== null && type.split(';')[0].trim().toLowerCase() === 'text/event-stream';
}

/**
 * The first characters of a streamed body that is not labelled an event stream: if no event comes out of it, the
 * error says what came instead. Keeps at most what it quotes and a margin, whatever the body's size.
 *
 * @internal
 */
export class BodyHead {
  private text = '';
  private more = false;

  add(text: string): void {
    if (this.more) return;
    const room = QUOTED_CHARS + MASK_MARGIN - this.text.length;
    if (text.length > room) this.more = true;
    this.text += text.slice(0, room);
  }

  /**
   * `expected an event stream, got <content type>: <the body's first 100 characters>…`, masked the way the core
   * masks what it reports (keys, tokens, URLs) and on one line.
   */
  error(contentType: string | null): MalformedResponseError {
    const type = contentType ? maskSecrets(contentType.slice(0, QUOTED_CHARS)) : 'a body with no content type';
    const masked = maskSecrets(this.text).replace(/\s+/g, ' ').trim();
    if (!masked) return new MalformedResponseError(`expected an event stream, got ${type} with an empty body`);
    const cut = this.more || masked.length > QUOTED_CHARS;
    return new MalformedResponseError(
      `expected an event stream, got ${type}: ${masked.slice(0, QUOTED_CHARS)}${cut ? '…' : ''}`,
    );
  }
}
