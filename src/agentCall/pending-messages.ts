import type { ChatCompletionMessageParam } from '../llm/type';

/**
 * Where the pending calls of a paused run sit in its history: the index of the assistant message that made them
 * (-1 when not found) and the index of each call's placeholder tool message. Both are in the last turn, so the
 * search walks back from the end and stops at that assistant message: the cost does not grow with the history.
 */
export function locatePending(
  messages: readonly ChatCompletionMessageParam[],
  ids: ReadonlySet<string>,
): { assistantIndex: number; toolIndex: Map<string, number> } {
  const toolIndex = new Map<string, number>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'tool') {
      if (ids.has(message.tool_call_id) && !toolIndex.has(message.tool_call_id)) toolIndex.set(message.tool_call_id, i);
      continue;
    }
    if (message.role === 'assistant' && message.tool_calls?.some((call) => ids.has(call.id))) {
      return { assistantIndex: i, toolIndex };
    }
  }
  return { assistantIndex: -1, toolIndex };
}
