import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import { getErrText } from '../text/error-text';
import { toolErrorText } from '../text/model-text';
import { normalizeToolResult } from '../toolCall/normalize-tool-result';
import type { RunToolResult, ToolExecuteResult, ToolInteractive } from '../toolCall/type';
import type { ChildrenInteractiveParams, ToolCallChildrenInteractive } from './type';

/**
 * The saved history with the paused tool's message answered by `result.response`, and the call that
 * was paused (for hooks). The saved array is copied, never changed.
 */
export function restoreInteractiveHistory(
  params: ChildrenInteractiveParams,
  result: ToolExecuteResult,
): { messages: ChatCompletionMessageParam[]; call?: ChatCompletionMessageToolCall } {
  const { memoryRequestMessages, toolCallId } = params.toolParams;
  let call: ChatCompletionMessageToolCall | undefined;
  let answered = false;
  const messages = memoryRequestMessages.map((message) => {
    if (message.role === 'assistant' && !call) {
      const found = message.tool_calls?.find((c) => c.id === toolCallId);
      if (found?.type === 'function') call = found;
    }
    if (message.role === 'tool' && message.tool_call_id === toolCallId) {
      answered = true;
      return { ...message, content: result.response };
    }
    return message;
  });
  // A history saved before its tool message was written still needs exactly one answer for the call.
  if (!answered) messages.push({ role: 'tool', tool_call_id: toolCallId, content: result.response });
  return { messages, call };
}

/** The `interactiveResponse` of a run paused by the call `toolCallId`; the history is filled in when the run ends. */
export function pausedAt(interactive: ToolInteractive, toolCallId: string): ToolCallChildrenInteractive {
  return {
    type: 'toolChildrenInteractive',
    params: { childrenResponse: interactive, toolParams: { memoryRequestMessages: [], toolCallId } },
  };
}

/** Call the resume handler; what it throws becomes the tool's answer, as for any tool. */
export async function runInteractiveHandler(
  handle: (params: ChildrenInteractiveParams) => Promise<ToolExecuteResult>,
  params: ChildrenInteractiveParams,
): Promise<RunToolResult> {
  try {
    return { ...normalizeToolResult(await handle(params)), outcome: 'ok' };
  } catch (error) {
    return { response: toolErrorText(getErrText(error)), outcome: 'error', error };
  }
}

/** Tool-internal messages worth keeping: empty assistant texts are noise. */
export function keepNonEmpty(messages: ChatCompletionMessageParam[] | undefined): ChatCompletionMessageParam[] {
  if (!messages?.length) return [];
  return messages.filter((m) => m.role !== 'assistant' || Boolean(m.content) || Boolean(m.tool_calls?.length));
}
