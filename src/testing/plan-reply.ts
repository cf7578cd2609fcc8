import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { splitArguments } from './fragments';
import type { ScriptedAnnotation, ScriptedFinishReason, ScriptedReply } from './types';
import { estimateUsage, withTotal } from './usage';

/**
 * A tool call with its id and argument fragments decided. A custom call's `arguments` is its free-form input,
 * streamed in the same fragments.
 */
export type PlannedToolCall = {
  id: string;
  type: 'function' | 'custom';
  name: string;
  arguments: string;
  fragments: string[];
};

/** A reply with every default resolved: what both the stream and the JSON encoders serve. */
export type PlannedReply = {
  text: string;
  reasoning: string;
  /** `''` when the model does not refuse. */
  refusal: string;
  annotations: ScriptedAnnotation[];
  /** Responses output items served as given, before the reply's own. */
  items: object[];
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
  const refusal = reply.refusal ?? '';
  let outputChars = text.length + reasoning.length + refusal.length;
  const toolCalls = (reply.toolCalls ?? []).map((call): PlannedToolCall => {
    const type = call.type ?? 'function';
    const args =
      type === 'custom'
        ? (call.input ?? '')
        : call.argumentChunks !== undefined
          ? call.argumentChunks.join('')
          : typeof call.arguments === 'string'
            ? call.arguments
            : call.arguments === undefined
              ? ''
              : JSON.stringify(call.arguments);
    outputChars += call.name.length + args.length;
    return {
      id: call.id ?? context.nextToolCallId(),
      type,
      name: call.name,
      arguments: args,
      // Explicit fragments are sent verbatim, empty ones included: some providers do send those.
      fragments: (type === 'function' && call.argumentChunks) || splitArguments(args),
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
    refusal,
    annotations: reply.annotations ?? [],
    items: reply.items ?? [],
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage,
    chunkSize: reply.chunkSize ?? context.defaultChunkSize,
  };
}
