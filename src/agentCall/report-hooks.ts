import type { LLMResponse } from '../llm/request';
import type { ChatCompletionMessageToolCall } from '../llm/type';
import type { RunToolResult } from '../toolCall/type';
import { callHook } from '../utils/call-hook';
import type { RunAgentCallProps } from './type';

/**
 * `onRequestEnd` for one main model request of `model`. Call it only when the hook is set: a run without one then
 * builds no event.
 *
 * @internal
 */
export function reportRequestEnd(
  props: Pick<RunAgentCallProps, 'onRequestEnd' | 'onHookError'>,
  model: string,
  res: LLMResponse,
): void {
  const { requestId, usage, ms, firstChunkMs, finish_reason: finishReason, retries, error } = res;
  const event = {
    requestId,
    model,
    usage,
    ms,
    ...(firstChunkMs !== undefined && { firstChunkMs }),
    finishReason,
    retries,
    ...(error !== undefined && { error }),
  };
  callHook(props.onRequestEnd, 'onRequestEnd', event, props.onHookError);
}

/**
 * `onAfterToolCall` for a call answered without running its tool (past the turn's cap, rejected, answered by a
 * person or by the resume handler): `runToolCalls` reports the calls it runs itself.
 *
 * @internal
 */
export function reportAnsweredCall(
  props: Pick<RunAgentCallProps, 'onAfterToolCall' | 'onHookError'>,
  call: ChatCompletionMessageToolCall,
  result: RunToolResult,
  durationMs: number,
): void {
  const { onAfterToolCall, onHookError } = props;
  if (!onAfterToolCall) return;
  const { response, outcome, error } = result;
  const event = { call, response, outcome, ...(error !== undefined ? { error } : {}), durationMs };
  callHook(onAfterToolCall, 'onAfterToolCall', event, onHookError);
}
