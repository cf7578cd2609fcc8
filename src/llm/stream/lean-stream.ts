import { APIError, OpenAIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { BodyHead, isEventStream } from './event-stream-check';
import { startIdleTimer } from './idle-timer';
import { ResponseByteCounter, type ResponseLimits } from './limit-response';
import { LineEndings } from './line-endings';

/** Where the chunks go: {@link ResponseState} for the chat wire, the Responses wire's event reader for that wire. */
export type ChunkReceiver<Chunk = ChatCompletionChunk> = {
  /** Handles one chunk (one parsed event); false when the request must end here. */
  receive(chunk: Chunk): boolean;
  /** Grows when a chunk brought something useful: only then is the idle timer refreshed. */
  readonly progress: number;
  /** The stream ended normally. */
  endStream(): void;
};

/** How an in-band `{"error": …}` event becomes an error: the SDK's own `APIError` class. */
type APIErrorClass = new (status: undefined, error: unknown, message: undefined, headers: Headers) => Error;

/** What {@link readLeanStream} needs besides the response. */
export type LeanStreamOptions = {
  /**
   * Aborted to end the request; its abort ends the read quietly (the caller judges the reason). The request need
   * not follow it: the reader stops and cancels the body itself.
   */
  controller: AbortController;
  limits: ResponseLimits;
  /**
   * Longest time without progress (a chunk that brought text, reasoning, a tool call or its arguments, the usage
   * or the finish reason; empty chunks and keep-alives do not count): past it `controller` aborts with
   * `StreamIdleTimeoutError` and the body is cancelled. Absent or 0: no limit.
   */
  idleMs?: number;
  /** The client's `APIError` class (`OpenAI.APIError` of the module the client came from). */
  apiError?: APIErrorClass;
};

/**
 * Reads a chat-completions SSE body with a small kept parser and `JSON.parse`, handing each chunk to `receiver`:
 * what the openai SDK's stream iterator does, at a fraction of its CPU per chunk. It keeps the SDK's rules: an
 * event whose data starts with `[DONE]` ends the chunks (the rest of the body is read and ignored, so the
 * connection can be reused), an event whose JSON has a truthy `error` throws the SDK's `APIError`, data that is
 * not JSON throws the `SyntaxError`, an event named `thread.*` is handed over as `{ event, data }`, a last event
 * without its blank line is dropped. A body not labelled `text/event-stream` is read all the same (some servers
 * mislabel their streams), but if not one event comes out of it, it throws a `MalformedResponseError` quoting its
 * content type and first characters instead of ending as an empty response. The wire guard and the line cap are
 * counted on the raw reads; what the response keeps is counted by the receiver. Line ends are made `\n` before parsing (see {@link LineEndings}). An abort of `controller` ends the
 * read without a throw, whether or not the request follows `controller`; any other end before the body's own closes
 * the connection.
 *
 * @internal
 */
export async function readLeanStream<Chunk = ChatCompletionChunk>(
  response: Response,
  receiver: ChunkReceiver<Chunk>,
  options: LeanStreamOptions,
): Promise<void> {
  const { controller, idleMs } = options;
  const body = response.body;
  if (!body) throw new OpenAIError('Attempted to iterate over a response with no body');
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  // Cancelling wakes a pending read even when the request does not follow `controller`.
  const idle = startIdleTimer(controller, idleMs, () => void reader.cancel().catch(() => undefined));
  const counter = new ResponseByteCounter(options.limits);
  const decoder = new TextDecoder();
  const lineEnds = new LineEndings();
  const ErrorClass = options.apiError ?? (APIError as unknown as APIErrorClass);
  const head = isEventStream(response) ? undefined : new BodyHead();
  let done = false;
  let stopped = false;
  let sawEvent = false;
  let progress = receiver.progress;
  const onEvent = (event: EventSourceMessage): void => {
    sawEvent = true;
    if (done || stopped) return;
    if (controller.signal.aborted) {
      stopped = true;
      return;
    }
    const { data } = event;
    if (data.startsWith('[DONE]')) {
      done = true;
      return;
    }
    const parsed: unknown = JSON.parse(data);
    if (event.event?.startsWith('thread.')) {
      stopped = !receiver.receive({ event: event.event, data: parsed } as unknown as Chunk);
    } else {
      const error: unknown = (parsed as { error?: unknown } | null)?.error;
      if (parsed && error) throw new ErrorClass(undefined, error, undefined, response.headers);
      stopped = !receiver.receive(parsed as Chunk);
    }
    if (stopped) controller.abort();
  };
  const parser = createParser({ onEvent });
  let finished = false;
  try {
    for (;;) {
      const { done: end, value } = await reader.read();
      if (controller.signal.aborted) return;
      if (end) break;
      const tooLarge = counter.add(value);
      if (tooLarge) throw tooLarge;
      // After `[DONE]` the body is still read to its end, as the SDK does, but nothing in it counts.
      if (done) continue;
      const text = lineEnds.normalize(decoder.decode(value, { stream: true }));
      if (head && !sawEvent) head.add(text);
      parser.feed(text);
      if (stopped) return;
      if (receiver.progress !== progress) {
        progress = receiver.progress;
        idle?.refresh();
      }
    }
    finished = true;
    if (head && !sawEvent) throw head.error(response.headers.get('content-type'));
    receiver.endStream();
  } catch (error) {
    if (controller.signal.aborted) return;
    throw error;
  } finally {
    clearTimeout(idle);
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}
