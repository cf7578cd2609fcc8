import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { ScriptedReply } from './types';

/** Content types by file extension: SSE for `.sse`, JSON for `.json`, else left to the request. */
const CONTENT_TYPES: Record<string, string> = { '.sse': 'text/event-stream', '.json': 'application/json' };

/**
 * A scripted reply that replays a recorded response file byte for byte: an SSE stream (`.sse`) or a JSON body
 * (`.json`), with the given status and headers. The file is read once, now, so a missing fixture fails where it
 * is named rather than inside the server.
 *
 * @example
 * const server = await startScriptedServer({
 *   turns: [recordedReply('fixtures/tool-calls.sse'), recordedReply('fixtures/answer.sse')],
 * });
 */
export function recordedReply(
  file: string,
  options: { status?: number; headers?: Record<string, string>; delayMs?: number; chunkDelayMs?: number } = {},
): ScriptedReply {
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
  return {
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
    ...(options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {}),
    recorded: {
      ...(options.status !== undefined ? { status: options.status } : {}),
      headers: { ...(contentType ? { 'content-type': contentType } : {}), ...options.headers },
      body: readFileSync(file),
    },
  };
}
