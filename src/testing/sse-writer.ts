import type { ServerResponse } from 'node:http';
import { sleep } from './sleep';
import { DONE_EVENT } from './stream-events';

/** Pacing and breakage of one stream. */
export type SseWriteOptions = {
  chunkDelayMs: number;
  /** Destroy the socket after this many events instead of ending the stream. */
  cutAfter?: number;
  /** End with `data: [DONE]`, as chat completions do; default true. Responses streams end without it. */
  done?: boolean;
};

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** An SSE comment (clients skip it) sent when a stream is cut before its first event, so headers reach the client. */
const CUT_BEFORE_FIRST_EVENT = ': scripted stream\n\n';

/**
 * Write SSE events, then `[DONE]` (unless `done: false`) or (with `cutAfter`) a destroyed socket.
 *
 * Without a delay everything goes out in one write: the cheap path benchmarks rely on. With a delay each event
 * is written alone and the wait stops as soon as `signal` aborts (client gone or server closing).
 * Takes ownership of `events` (may append `[DONE]` to it).
 */
export async function writeSse(
  res: ServerResponse,
  events: string[],
  options: SseWriteOptions,
  signal: AbortSignal,
): Promise<void> {
  const cut = options.cutAfter !== undefined;
  const out = cut ? events.slice(0, options.cutAfter) : events;
  if (!cut && options.done !== false) out.push(DONE_EVENT);
  res.writeHead(200, SSE_HEADERS);

  if (options.chunkDelayMs === 0) {
    if (!cut) res.end(out.join(''));
    else writeThenDestroy(res, out.length > 0 ? out.join('') : CUT_BEFORE_FIRST_EVENT);
    return;
  }
  for (let i = 0; i < out.length; i++) {
    if (i > 0 && !(await sleep(options.chunkDelayMs, signal))) return;
    if (cut && i === out.length - 1) writeThenDestroy(res, out[i]);
    else res.write(out[i]);
  }
  if (!cut) res.end();
  else if (out.length === 0) writeThenDestroy(res, CUT_BEFORE_FIRST_EVENT);
}

/** Destroy only once the bytes reached the socket, so the client really receives the events before the cut. */
function writeThenDestroy(res: ServerResponse, data: string): void {
  res.write(data, () => res.destroy());
}
