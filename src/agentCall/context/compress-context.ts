import { MAX_QUOTED_CHARS } from '../../constants';
import type { LLMClient } from '../../llm/client';
import { estimateMessageTokens, estimateMessagesTokens } from '../../llm/tokens';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ReasoningItem,
  UsageItem,
} from '../../llm/type';
import { summarize } from './summarize';
import type { Wire } from '../../llm/wires/wire';
import type { CompressContextEvent } from '../events/event-types';

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
      const extra = message.role === 'assistant' ? assistantExtras(message) : '';
      return `### ${message.role}\n${clip(text ?? '')}${extra}`;
    })
    .join('\n\n');
}

/**
 * What an assistant message holds besides its text, as the summary model should read it: its reasoning (in whatever
 * field or kept item it came: the summary is what the model thought, the encrypted part is unreadable and left
 * out), the hosted items it kept (a web search, an MCP call, each clipped), and its tool calls.
 */
function assistantExtras(message: ChatCompletionAssistantMessageParam): string {
  let extra = '';
  const reasoning: string[] = [];
  if (message.reasoning_content) reasoning.push(message.reasoning_content);
  if (message.reasoning) reasoning.push(message.reasoning);
  const items: string[] = [];
  for (const list of [message.reasoning_items, message.output_items])
    for (const item of list ?? []) {
      if (item.type === 'reasoning') reasoning.push(reasoningText(item as ReasoningItem));
      else items.push(JSON.stringify(item));
    }
  const thought = reasoning.filter(Boolean).join('\n');
  if (thought) extra += `\n[reasoning] ${clip(thought)}`;
  if (items.length) extra += `\n[items] ${clip(items.join('; '))}`;
  if (message.tool_calls?.length)
    extra += `\n[tool calls] ${message.tool_calls
      .map((c) =>
        c.type === 'function' ? `${c.function.name}(${c.function.arguments})` : `${c.custom.name}(${c.custom.input})`,
      )
      .join('; ')}`;
  return extra;
}

/** The readable part of a reasoning item: its summary, else its reasoning text (what Open Responses servers send). */
function reasoningText(item: ReasoningItem): string {
  // A state from outside may hold anything here: only text parts are read.
  const parts: unknown = Array.isArray(item.summary) && item.summary.length ? item.summary : item.content;
  if (!Array.isArray(parts)) return '';
  return parts.map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

function clip(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)} …` : text;
}
