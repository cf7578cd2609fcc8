import type OpenAI from 'openai';
import { createLLMResponse } from '../llm/request';
import { estimateTokens } from '../llm/tokens';
import type { UsageItem } from '../llm/type';
import { truncateMiddle } from './truncate';

/** Characters per token assumed when cutting text to a token budget (cautious: code and JSON run ~3). */
const CHARS_PER_TOKEN = 3;

/**
 * Fit a tool response into `maxTokens`: summarised by the model when `client` is given, else (or when that
 * fails or still overflows) cut in the middle with a notice. Returns undefined when it already fits.
 */
export async function compressToolResponse({
  response,
  maxTokens,
  client,
  model,
  abortSignal,
}: {
  response: string;
  maxTokens: number;
  client?: OpenAI;
  model?: string;
  abortSignal?: AbortSignal;
}): Promise<{ response: string; usage?: UsageItem } | undefined> {
  if (estimateTokens(response) <= maxTokens) return undefined;
  if (client && model) {
    const res = await createLLMResponse({
      client,
      abortSignal,
      body: {
        model,
        stream: false,
        temperature: 0.1,
        messages: [
          {
            role: 'system',
            content: `Shorten the tool output the user sends to at most ${maxTokens} tokens. Keep every fact, number, identifier and error that could matter; drop repetition and boilerplate. Never invent anything. Answer with the shortened output only.`,
          },
          { role: 'user', content: truncateMiddle(response, maxTokens * CHARS_PER_TOKEN * 8) },
        ],
      },
    });
    if (res.error === undefined && res.answerText.trim()) {
      const usage: UsageItem = { moduleName: 'compress_tool_response', model, ...res.usage };
      return { response: fit(res.answerText.trim(), maxTokens), usage };
    }
  }
  return { response: fit(response, maxTokens) };
}

function fit(text: string, maxTokens: number): string {
  return estimateTokens(text) <= maxTokens ? text : truncateMiddle(text, maxTokens * CHARS_PER_TOKEN);
}
