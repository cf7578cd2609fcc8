import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { PlannedReply, PlannedToolCall } from './plan-reply';
import type { ScriptedAnnotation } from './types';

/** Identity of one response, shared by the stream and JSON encoders. */
export type CompletionMeta = { id: string; created: number; model: string };

/** An assistant message plus the `reasoning_content` field of DeepSeek-style reasoning models. */
type ScriptedMessage = ChatCompletionMessage & { reasoning_content?: string };

/** Encode a planned reply as a non-stream `chat.completion` body; empty `content` is `null`, as OpenAI sends it. */
export function buildCompletionBody(plan: PlannedReply, meta: CompletionMeta): ChatCompletion {
  const message: ScriptedMessage = {
    role: 'assistant',
    content: plan.text === '' ? null : plan.text,
    refusal: plan.refusal === '' ? null : plan.refusal,
  };
  if (plan.reasoning !== '') message.reasoning_content = plan.reasoning;
  if (plan.annotations.length > 0) message.annotations = plan.annotations.map(chatAnnotation);
  if (plan.toolCalls.length > 0) message.tool_calls = plan.toolCalls.map(chatToolCall);
  const body: ChatCompletion = {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: plan.finishReason, logprobs: null }],
  };
  if (plan.usage !== null) body.usage = plan.usage;
  return body;
}

/** A planned call in the chat shape: `function` with its arguments, or `custom` with its input. */
export function chatToolCall(call: PlannedToolCall): ChatCompletionMessageToolCall {
  return call.type === 'custom'
    ? { id: call.id, type: 'custom', custom: { name: call.name, input: call.arguments } }
    : { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

/** A Responses `url_citation` in the chat shape, its fields one level down. */
export function chatAnnotation(annotation: ScriptedAnnotation): ChatCompletionMessage.Annotation {
  const { type, ...citation } = annotation;
  return { type, url_citation: citation };
}
