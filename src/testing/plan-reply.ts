import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { splitArguments } from './fragments';
import type { ScriptedFinishReason, ScriptedReply } from './types';
import { estimateUsage, withTotal } from './usage';

/** A tool call with its id and argument fragments decided. */
export type PlannedToolCall = { id: string; name: string; arguments: string; fragments: string[] };

/** A reply with every default resolved: what both the stream and the JSON encoders serve. */
export type PlannedReply = {
  text: string;
  reasoning: string;
  toolCalls: PlannedToolCall[];
  finishReason: ScriptedFinishReason;
  usage: CompletionUsage | null;
  chunkSize: number;
};

/** What a plan needs from the server and the request. */
export type PlanContext = {
  body: ChatCompletionCreateParams;
  defaultChunkSize: number;
  /** Hands out `call_<n>` ids; owned by the server so ids stay unique across sessions. */
  nextToolCallId: () => string;
};

/** Resolve a validated reply's defaults once, so the encoders only copy values. */
export function planReply(reply: ScriptedReply, context: PlanContext): PlannedReply {
  const text = reply.text ?? '';
  const reasoning = reply.reasoning ?? '';
  let outputChars = text.length + reasoning.length;
  const toolCalls = (reply.toolCalls ?? []).map((call): PlannedToolCall => {
    const args =
      call.argumentChunks !== undefined
        ? call.argumentChunks.join('')
        : typeof call.arguments === 'string'
          ? call.arguments
          : call.arguments === undefined
            ? ''
            : JSON.stringify(call.arguments);
    outputChars += call.name.length + args.length;
    return {
      id: call.id ?? context.nextToolCallId(),
      name: call.name,
      arguments: args,
      // Explicit fragments are sent verbatim, empty ones included: some providers do send those.
      fragments: call.argumentChunks ?? splitArguments(args),
    };
  });
  const usage =
    reply.usage === null
      ? null
      : reply.usage !== undefined
        ? withTotal(reply.usage)
        : estimateUsage(context.body, outputChars);
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage,
    chunkSize: reply.chunkSize ?? context.defaultChunkSize,
  };
}
