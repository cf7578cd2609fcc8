import { CUT_CHARS_PER_TOKEN, SUMMARY_INPUT_FACTOR } from '../../constants';
import type { LLMClient } from '../../llm/client';
import { summarize } from './summarize';
import type { Wire } from '../../llm/wires/wire';
import { estimateTokens } from '../../llm/tokens';
import type { UsageItem } from '../../llm/type';
import { truncateMiddle } from './truncate';

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
  wire,
}: {
  response: string;
  maxTokens: number;
  client?: LLMClient;
  model?: string;
  abortSignal?: AbortSignal;
  /** The wire the summary request goes over (the run's). */
  wire?: Wire;
}): Promise<{ response: string; usage?: UsageItem } | undefined> {
  if (estimateTokens(response) <= maxTokens) return undefined;
  if (client && model) {
    const summary = await summarize({
      client,
      model,
      abortSignal,
      wire,
      instructions: `Shorten the tool output the user sends to at most ${maxTokens} tokens. Keep every fact, number, identifier and error that could matter; drop repetition and boilerplate. Never invent anything. Answer with the shortened output only.`,
      text: truncateMiddle(response, maxTokens * CUT_CHARS_PER_TOKEN * SUMMARY_INPUT_FACTOR),
    });
    if (summary) {
      const usage: UsageItem = {
        moduleName: 'compress_tool_response',
        model,
        inputTokens: summary.inputTokens,
        outputTokens: summary.outputTokens,
      };
      return { response: fit(summary.text, maxTokens), usage };
    }
  }
  return { response: fit(response, maxTokens) };
}

function fit(text: string, maxTokens: number): string {
  return estimateTokens(text) <= maxTokens ? text : truncateMiddle(text, maxTokens * CUT_CHARS_PER_TOKEN);
}
