import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import type { ToolExecuteResult } from '../toolCall/type';
import type { ChildrenInteractiveParams } from './type';

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
