import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';

/**
 * The Responses mapping of a chat history, as a Responses client sends it: an assistant message goes out as its
 * reasoning items, its text (none when it has none), then one `function_call` per tool call.
 */
export function toResponsesInput(messages: ChatCompletionMessageParam[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    if (message.role === 'tool') {
      return [{ type: 'function_call_output', call_id: message.tool_call_id, output: message.content as string }];
    }
    if (message.role !== 'assistant') {
      const content = message.content as string | Array<{ type: 'text'; text: string }>;
      return [
        {
          role: message.role as 'user' | 'system' | 'developer',
          content:
            typeof content === 'string' ? content : content.map((part) => ({ type: 'input_text', text: part.text })),
        },
      ];
    }
    const kept = (message as { reasoning_items?: ResponseInputItem[] }).reasoning_items ?? [];
    const text: ResponseInputItem[] =
      typeof message.content === 'string' ? [{ role: 'assistant', content: message.content }] : [];
    const calls = (message.tool_calls ?? []).map((call): ResponseInputItem => ({
      type: 'function_call',
      call_id: call.id,
      name: (call as ChatCompletionMessageToolCall & { type: 'function' }).function.name,
      arguments: (call as ChatCompletionMessageToolCall & { type: 'function' }).function.arguments,
    }));
    return [...kept, ...text, ...calls];
  });
}
