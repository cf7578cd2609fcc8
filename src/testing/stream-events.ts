import type { ChatCompletionChunk, ChatCompletionMessage } from 'openai/resources/chat/completions';
import { chatAnnotation } from './completion-body';
import type { CompletionUsage } from 'openai/resources/completions';
import { errorBody } from './error-body';
import { splitText } from './fragments';
import type { PlannedReply } from './plan-reply';

/** The terminating event; never counted as one of the reply's events. */
export const DONE_EVENT = 'data: [DONE]\n\n';

/** What the stream encoder needs besides the plan. */
export type StreamMeta = {
  id: string;
  created: number;
  model: string;
  /** The request's `stream_options.include_usage`: OpenAI sends a usage chunk only when asked. */
  includeUsage: boolean;
  malformedChunkAt?: number;
  streamErrorAt?: number;
  errorMessage?: string;
};

/**
 * A streamed delta plus the `reasoning_content` field of DeepSeek-style reasoning models, the `annotations`
 * OpenAI streams for cited text, and custom tool calls (`type: 'custom'`, `custom: { name?, input }`), which the
 * SDK's chunk type does not list.
 */
type ScriptedDelta = Omit<ChatCompletionChunk.Choice.Delta, 'tool_calls'> & {
  reasoning_content?: string;
  annotations?: ChatCompletionMessage.Annotation[];
  tool_calls?: (
    | ChatCompletionChunk.Choice.Delta.ToolCall
    | { index: number; id?: string; type: 'custom'; custom: { name?: string; input: string } }
  )[];
};

const MALFORMED_EVENT = 'data: {"id":"scripted-malformed", this is not JSON\n\n';

/**
 * Encode a planned reply as ChatCompletionChunk SSE events, without the final `[DONE]`.
 *
 * Order follows OpenAI: role chunk, reasoning, text, each tool call's header then its argument fragments,
 * the finish chunk, then the usage chunk (`choices: []`). The fixed fields are serialised once per reply
 * and spliced into every event, so per-chunk work is one small `JSON.stringify`: benchmarks share this server.
 */
export function buildStreamEvents(plan: PlannedReply, meta: StreamMeta): string[] {
  const fixed = { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model };
  const head = `data: ${JSON.stringify(fixed).slice(0, -1)},"choices":`;
  const choice = (delta: ScriptedDelta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): string => {
    const choices: (Omit<ChatCompletionChunk.Choice, 'delta'> & { delta: ScriptedDelta })[] = [
      { index: 0, delta, finish_reason: finish },
    ];
    return `${head}${JSON.stringify(choices)}}\n\n`;
  };

  const events: string[] = [choice({ role: 'assistant', content: '' })];
  for (const piece of splitText(plan.reasoning, plan.chunkSize)) events.push(choice({ reasoning_content: piece }));
  for (const piece of splitText(plan.text, plan.chunkSize)) events.push(choice({ content: piece }));
  if (plan.annotations.length > 0) events.push(choice({ annotations: plan.annotations.map(chatAnnotation) }));
  for (const piece of splitText(plan.refusal, plan.chunkSize)) events.push(choice({ refusal: piece }));
  plan.toolCalls.forEach((call, index) => {
    if (call.type === 'custom') {
      // A custom call opens with its id and name; its input follows in fragments, each a `custom.input` piece.
      events.push(
        choice({ tool_calls: [{ index, id: call.id, type: 'custom', custom: { name: call.name, input: '' } }] }),
      );
      for (const input of call.fragments)
        events.push(choice({ tool_calls: [{ index, type: 'custom', custom: { input } }] }));
      return;
    }
    events.push(
      choice({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const fragment of call.fragments) {
      events.push(choice({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  events.push(choice({}, plan.finishReason));
  if (meta.includeUsage && plan.usage !== null) events.push(usageEvent(head, plan.usage));

  injectFaults(events, meta);
  return events;
}

function usageEvent(head: string, usage: CompletionUsage): string {
  return `${head}[],"usage":${JSON.stringify(usage)}}\n\n`;
}

/** Insert the faulty events at their numbers; ascending order keeps each one at the position it asked for. */
function injectFaults(events: string[], meta: StreamMeta): void {
  const faults: Array<[number, string]> = [];
  if (meta.malformedChunkAt !== undefined) faults.push([meta.malformedChunkAt, MALFORMED_EVENT]);
  if (meta.streamErrorAt !== undefined) {
    const body = errorBody(undefined, meta.errorMessage ?? 'scripted stream error', 'scripted_stream_error');
    faults.push([meta.streamErrorAt, `data: ${JSON.stringify(body)}\n\n`]);
  }
  faults.sort((a, b) => a[0] - b[0]);
  for (const [at, event] of faults) events.splice(at, 0, event);
}
