import type { ServerResponse } from 'node:http';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { buildCompletionBody, type CompletionMeta } from './completion-body';
import type { PlannedReply } from './plan-reply';
import { writeSse } from './sse-writer';
import { buildStreamEvents } from './stream-events';
import type { ScriptedReply } from './types';

/** A chat completion: the SSE chunks of a stream, or one `chat.completion` JSON body. */
export function serveChat(
  res: ServerResponse,
  plan: PlannedReply,
  reply: ScriptedReply,
  body: ChatCompletionCreateParams,
  meta: CompletionMeta,
  signal: AbortSignal,
): Promise<void> | void {
  if (body.stream === true) {
    const events = buildStreamEvents(plan, {
      ...meta,
      includeUsage: body.stream_options?.include_usage === true,
      malformedChunkAt: reply.malformedChunkAt,
      streamErrorAt: reply.streamErrorAt,
      errorMessage: reply.errorMessage,
    });
    return writeSse(res, events, { chunkDelayMs: reply.chunkDelayMs ?? 0, cutAfter: reply.cutAfter }, signal);
  }
  const payload = JSON.stringify(buildCompletionBody(plan, meta));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }).end(payload);
}
