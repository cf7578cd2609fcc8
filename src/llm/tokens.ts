import { MEDIA_PART_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../constants';
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from './type';

/**
 * A fast token estimate without a tokenizer: ~4 ASCII characters per token, one token per other character
 * (CJK text runs close to that). Good enough for budgets and thresholds, never for billing. Of a chat message:
 * its text parts, tool calls and a fixed overhead; of a history: the sum over its messages.
 */
export function estimateTokens(
  text: string | ChatCompletionMessageParam | readonly ChatCompletionMessageParam[] | null | undefined,
): number {
  if (!text) return 0;
  // One public name for the one estimate; the loop itself calls the message forms directly.
  if (typeof text !== 'string') return 'role' in text ? estimateMessageTokens(text) : estimateMessagesTokens(text);
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/**
 * {@link estimateTokens} of one chat message: its text parts, tool calls and a fixed overhead; of an assistant
 * message also its refusal and everything it carries back to the model besides text (reasoning in any field, the
 * Responses wire's kept reasoning and output items), since each goes out again with every later request.
 */
export function estimateMessageTokens(message: ChatCompletionMessageParam): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  const content = message.content;
  if (typeof content === 'string') tokens += estimateTokens(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') tokens += estimateTokens(part.text);
      else if (part.type === 'refusal') tokens += estimateTokens(part.refusal);
      // Images and audio are billed by size, not text; a flat guess keeps thresholds sane.
      else tokens += MEDIA_PART_TOKENS;
    }
  }
  if (message.role === 'assistant') tokens += assistantExtraTokens(message);
  return tokens;
}

/** Sum of {@link estimateMessageTokens} over a history. */
export function estimateMessagesTokens(messages: readonly ChatCompletionMessageParam[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * What an assistant message sends besides its content: its refusal, its reasoning fields, its kept Responses items
 * (counted as the JSON they go back as: encrypted reasoning is sent whole, so it weighs what it is), and its tool
 * calls (a custom call's free-form input included).
 */
function assistantExtraTokens(message: ChatCompletionAssistantMessageParam): number {
  let tokens = estimateTokens(message.refusal) + estimateTokens(message.reasoning_content);
  tokens += estimateTokens(message.reasoning);
  if (message.reasoning_details?.length) tokens += estimateTokens(JSON.stringify(message.reasoning_details));
  for (const items of [message.reasoning_items, message.output_items])
    for (const item of items ?? []) tokens += estimateTokens(JSON.stringify(item));
  for (const call of message.tool_calls ?? []) {
    if (call.type === 'function')
      tokens += estimateTokens(call.function.name) + estimateTokens(call.function.arguments);
    else if (call.type === 'custom') tokens += estimateTokens(call.custom.name) + estimateTokens(call.custom.input);
  }
  return tokens;
}
