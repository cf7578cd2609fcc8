import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';

/** A streamed reply reassembled the way a client must: deltas concatenated, tool calls merged by index. */
export type CollectedStream = {
  chunks: ChatCompletionChunk[];
  text: string;
  reasoning: string;
  toolCalls: Array<{ id?: string; name: string; arguments: string; fragments: number }>;
  finishReason: string | null;
  usage: CompletionUsage | undefined;
};

type ReasoningDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string };

/** Drain a stream; `into` lets a test inspect what arrived before the iteration threw. */
export async function collectStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  into: CollectedStream = emptyCollected(),
): Promise<CollectedStream> {
  for await (const chunk of stream) {
    into.chunks.push(chunk);
    if (chunk.usage) into.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as ReasoningDelta;
    into.text += delta.content ?? '';
    into.reasoning += delta.reasoning_content ?? '';
    for (const call of delta.tool_calls ?? []) {
      const slot = (into.toolCalls[call.index] ??= { name: '', arguments: '', fragments: 0 });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name += call.function.name;
      if (call.function?.arguments) {
        slot.arguments += call.function.arguments;
        slot.fragments++;
      }
    }
    if (choice.finish_reason) into.finishReason = choice.finish_reason;
  }
  return into;
}

export function emptyCollected(): CollectedStream {
  return { chunks: [], text: '', reasoning: '', toolCalls: [], finishReason: null, usage: undefined };
}
