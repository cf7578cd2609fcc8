import type { ServerResponse } from 'node:http';
import type { PlannedReply } from '../plan-reply';
import { writeSse } from '../sse-writer';
import type { ScriptedReply } from '../types';
import { planOutputItems } from './output-items';
import { buildResponse, isIncomplete, type ResponseMeta } from './response-object';
import { buildResponseEvents } from './stream-events';

/** Identity of one response: `resp_scripted_<number>`, and its items' ids are numbered after it. */
export type ResponseIdentity = { number: number; createdAt: number; model: string };

/**
 * Answer a `POST /v1/responses` from a planned reply: an SSE stream of Responses events when the request asked to
 * stream, else the `Response` JSON object, with the reply's pacing and faults.
 */
export function serveResponse(
  res: ServerResponse,
  plan: PlannedReply,
  reply: ScriptedReply,
  context: ResponseIdentity & {
    request: Record<string, unknown>;
    /** Told the items served, so later requests may refer to them by id. */
    issue: (items: readonly { id?: unknown }[]) => void;
  },
  signal: AbortSignal,
): Promise<void> | void {
  const incomplete = isIncomplete(plan.finishReason);
  const items = planOutputItems(plan, context.number, incomplete);
  context.issue(items.map((planned) => planned.item));
  const meta: ResponseMeta = {
    id: `resp_scripted_${context.number}`,
    createdAt: context.createdAt,
    model: context.model,
    request: context.request,
  };
  const final = {
    status: incomplete ? ('incomplete' as const) : ('completed' as const),
    usage: plan.usage,
    finishReason: plan.finishReason,
  };
  if (context.request.stream === true) {
    const events = buildResponseEvents(items, meta, {
      final,
      malformedChunkAt: reply.malformedChunkAt,
      streamErrorAt: reply.streamErrorAt,
      errorMessage: reply.errorMessage,
    });
    const options = { chunkDelayMs: reply.chunkDelayMs ?? 0, cutAfter: reply.cutAfter, done: false };
    return writeSse(res, events, options, signal);
  }
  const body = buildResponse(meta, { ...final, output: items.map((planned) => planned.item) });
  const payload = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }).end(payload);
}
