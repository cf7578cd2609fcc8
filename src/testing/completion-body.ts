import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { PlannedReply } from './plan-reply';

/** Identity of one response, shared by the stream and JSON encoders. */
export type CompletionMeta = { id: string; created: number; model: string };

/** An assistant message plus the `reasoning_content` field of DeepSeek-style reasoning models. */
type ScriptedMessage = ChatCompletionMessage & { reasoning_content?: string };

/** Encode a planned reply as a non-stream `chat.completion` body; empty `content` is `null`, as OpenAI sends it. */
export function buildCompletionBody(plan: PlannedReply, meta: CompletionMeta): ChatCompletion {
  const message: ScriptedMessage = { role: 'assistant', content: plan.text === '' ? null : plan.text, refusal: null };
  if (plan.reasoning !== '') message.reasoning_content = plan.reasoning;
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
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
