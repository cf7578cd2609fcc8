import type { LLMResponse } from '../../llm/request';
import type { ChatCompletionMessageToolCall } from '../../llm/type';
import type { RunToolResult } from '../../toolCall/type';
import type { RunEvents } from './observers';
import type { RequestEndEvent } from './event-types';

/**
 * `requestEnd` for one main model request of `model`. Call it only when someone listens: a run without observers
 * then builds no event.
 *
 * @internal
 */
export function reportRequestEnd(events: RunEvents, model: string, res: LLMResponse): void {
  const { requestId, usage, ms, firstChunkMs, finish_reason: finishReason, retries, error } = res;
  const event: RequestEndEvent = {
    requestId,
    model,
    usage,
    ms,
    ...(firstChunkMs !== undefined && { firstChunkMs }),
    finishReason,
    retries,
    ...(error !== undefined && { error }),
  };
  events.emit('requestEnd', event);
}

/**
 * `toolEnd` for a call answered without running its tool (past the turn's cap, rejected, answered by a person or
 * by the resume handler): `runToolCalls` reports the calls it runs itself. Its `toolStart` was reported when its
 * answer began.
 *
 * @internal
 */
export function reportAnsweredCall(
  events: RunEvents,
  call: ChatCompletionMessageToolCall,
  result: RunToolResult,
  durationMs: number,
): void {
  if (!events.has('toolEnd')) return;
  const { response, outcome, error } = result;
  const event = { call, response, outcome, ...(error !== undefined ? { error } : {}), durationMs };
  events.emit('toolEnd', event);
}

/**
 * Answer a call outside `runToolCalls` (a rejection, a person's answer, the resume handler): reported as it starts
 * and ends, and run inside the observers' scope for it, like a call a tool answers.
 *
 * @internal
 */
export async function answerCall(
  events: RunEvents,
  call: ChatCompletionMessageToolCall,
  answer: () => RunToolResult | Promise<RunToolResult>,
): Promise<RunToolResult> {
  if (events.has('toolStart')) events.emit('toolStart', { call });
  const started = performance.now();
  const result = await (events.scoped ? events.within({ kind: 'tool', call }, answer) : answer());
  // A skipped call never started: 0, as for the calls `runToolCalls` skips.
  reportAnsweredCall(events, call, result, result.outcome === 'skipped' ? 0 : performance.now() - started);
  return result;
}
