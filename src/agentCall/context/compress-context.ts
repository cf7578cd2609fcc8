import { MAX_QUOTED_CHARS } from '../../constants';
import type { LLMClient } from '../../llm/client';
import { estimateMessageTokens, estimateMessagesTokens } from '../../llm/tokens';
import type { ChatCompletionMessageParam, UsageItem } from '../../llm/type';
import { summarize } from './summarize';
import type { Wire } from '../../llm/wires/wire';
import type { CompressContextEvent } from '../type';

const SUMMARY_PROMPT = `You compress the history of a conversation between a user, an AI agent and its tools, so the agent can continue the task with less context.
Write a concise summary that keeps: the user's goal and constraints, decisions taken, facts and numbers learned from tool results, what is done and what remains.
Never invent anything. Answer with the summary only.`;

/** The history after compression, with what the summary cost. */
export type CompressedContext = {
  messages: ChatCompletionMessageParam[];
  usage: UsageItem;
  event: CompressContextEvent;
};

/**
 * Replace the older part of the history with a model-written summary, keeping system messages and the most
 * recent turns (at least the last `keepTokens` worth), cut only where no tool call loses its tool message.
 * Returns undefined when there is nothing to compress or the summary request failed.
 */
export async function compressContext({
  messages,
  client,
  model,
  keepTokens,
  abortSignal,
  wire,
}: {
  messages: ChatCompletionMessageParam[];
  client: LLMClient;
  model: string;
  keepTokens: number;
  abortSignal?: AbortSignal;
  /** The wire the summary request goes over (the run's). */
  wire?: Wire;
}): Promise<CompressedContext | undefined> {
  let start = 0;
  while (start < messages.length && (messages[start].role === 'system' || messages[start].role === 'developer'))
    start++;
  const cut = findCut(messages, start, keepTokens);
  if (cut <= start) return undefined;

  const began = Date.now();
  const summary = await summarize({
    client,
    model,
    instructions: SUMMARY_PROMPT,
    text: transcript(messages.slice(start, cut)),
    abortSignal,
    wire,
  });
  if (!summary) return undefined;

  const compressed: ChatCompletionMessageParam[] = [
    ...messages.slice(0, start),
    { role: 'user', content: `[Summary of the earlier conversation]\n${summary.text}` },
    ...messages.slice(cut),
  ];
  const { inputTokens, outputTokens } = summary;
  return {
    messages: compressed,
    usage: { moduleName: 'compress_context', model, inputTokens, outputTokens },
    event: {
      modelName: model,
      inputTokens,
      outputTokens,
      seconds: (Date.now() - began) / 1000,
      beforeTokens: estimateMessagesTokens(messages),
      afterTokens: estimateMessagesTokens(compressed),
    },
  };
}

/** Index where the kept tail begins: a user or assistant message, with at least `keepTokens` after it. */
function findCut(messages: ChatCompletionMessageParam[], start: number, keepTokens: number): number {
  let tail = 0;
  for (let i = messages.length - 1; i > start; i--) {
    tail += estimateMessageTokens(messages[i]);
    const role = messages[i].role;
    if (tail >= keepTokens && (role === 'user' || role === 'assistant')) return i;
  }
  return start;
}

function transcript(messages: ChatCompletionMessageParam[]): string {
  return messages
    .map((message) => {
      const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
      const calls =
        message.role === 'assistant' && message.tool_calls?.length
          ? `\n[tool calls] ${message.tool_calls.map((c) => (c.type === 'function' ? `${c.function.name}(${c.function.arguments})` : c.type)).join('; ')}`
          : '';
      return `### ${message.role}\n${clip(text ?? '')}${calls}`;
    })
    .join('\n\n');
}

function clip(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)} …` : text;
}
