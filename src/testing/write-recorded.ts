import type { ServerResponse } from 'node:http';
import { sleep } from './sleep';
import type { RecordedResponse } from './types';

/**
 * Write a recorded response as it is: its status, its headers and its body pieces, one write each, nothing added.
 *
 * Without `content-type` the request decides it (`text/event-stream` for a stream, JSON otherwise), because the
 * openai SDK parses a non-streamed body as JSON only when the header says so.
 */
export async function writeRecorded(
  res: ServerResponse,
  recorded: RecordedResponse,
  options: { stream: boolean; chunkDelayMs: number },
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { ...recorded.headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = options.stream ? 'text/event-stream' : 'application/json';
  }
  res.writeHead(recorded.status ?? 200, headers);
  const pieces =
    typeof recorded.body === 'string' || recorded.body instanceof Uint8Array ? [recorded.body] : recorded.body;
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && options.chunkDelayMs > 0 && !(await sleep(options.chunkDelayMs, signal))) return;
    res.write(pieces[i]);
  }
  res.end();
}
