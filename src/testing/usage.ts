import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ScriptedUsage } from './types';

/** Characters per token of the estimate: the usual rule of thumb for English text. */
const CHARS_PER_TOKEN = 4;

/**
 * Deterministic token estimate for a reply: ceil(characters / 4) of the request's messages and of the output.
 *
 * Only text is counted (string contents, text parts, tool-call names and arguments): it is cheap, and a test
 * can predict the value. The body is not trusted to match its type: the server only checked it is an object.
 */
export function estimateUsage(body: ChatCompletionCreateParams, outputChars: number): CompletionUsage {
  const prompt_tokens = Math.ceil(countMessageChars(body.messages) / CHARS_PER_TOKEN);
  const completion_tokens = Math.ceil(outputChars / CHARS_PER_TOKEN);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** Complete a scripted usage with its total, and the token details it names (only those, as providers differ). */
export function withTotal(usage: ScriptedUsage): CompletionUsage {
  const { prompt_tokens, completion_tokens } = usage;
  const total: CompletionUsage = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  if (usage.cached_tokens !== undefined) total.prompt_tokens_details = { cached_tokens: usage.cached_tokens };
  if (usage.reasoning_tokens !== undefined) {
    total.completion_tokens_details = { reasoning_tokens: usage.reasoning_tokens };
  }
  return total;
}

function countMessageChars(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let chars = 0;
  for (const message of messages as unknown[]) {
    if (typeof message !== 'object' || message === null) continue;
    const { content, tool_calls } = message as { content?: unknown; tool_calls?: unknown };
    chars += countContentChars(content);
    if (Array.isArray(tool_calls)) {
      for (const call of tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>) {
        chars += lengthOf(call?.function?.name) + lengthOf(call?.function?.arguments);
      }
    }
  }
  return chars;
}

function countContentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content as Array<{ text?: unknown }>) chars += lengthOf(part?.text);
  return chars;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}
