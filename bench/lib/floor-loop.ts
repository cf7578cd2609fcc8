import type OpenAI from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/**
 * The floor: the smallest honest tool loop over the bare openai SDK. Streams, accumulates tool calls by
 * index, runs the tool, appends messages, repeats. No validation, no hooks, no error handling.
 */
export async function floorLoop({
  client,
  model,
  tools,
  run,
  maxTurns,
  onTurn,
}: {
  client: OpenAI;
  model: string;
  tools: ChatCompletionFunctionTool[];
  run: (name: string, args: Record<string, unknown>) => string;
  maxTurns: number;
  onTurn?: () => void;
}): Promise<ChatCompletionMessageParam[]> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Look things up.' }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const stream = await client.chat.completions.create({
      model,
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    const calls: ChatCompletionMessageFunctionToolCall[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) content += delta.content;
      for (const tc of delta.tool_calls ?? []) {
        const call = (calls[tc.index] ??= {
          id: tc.id ?? '',
          type: 'function',
          function: { name: tc.function?.name ?? '', arguments: '' },
        });
        if (tc.function?.arguments) call.function.arguments += tc.function.arguments;
      }
    }
    messages.push({ role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls } : {}) });
    if (!calls.length) break;
    for (const call of calls) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: run(call.function.name, JSON.parse(call.function.arguments || '{}')),
      });
    }
    onTurn?.();
  }
  return messages;
}
