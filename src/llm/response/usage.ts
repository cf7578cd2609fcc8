import type { LLMResponse } from './response-types';
import type { UsageItem } from '../type';

/**
 * A token count as reported by an endpoint or a tool, accepted only as a finite non-negative integer; anything
 * else (a string, NaN, a negative or fractional number) is `undefined`, so sums stay numbers.
 *
 * @example tokenCount('12') // undefined
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The token counts of a Chat Completions `usage` object (`prompt_tokens`, `completion_tokens`, plus the cached and
 * reasoning tokens of `prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens` when
 * valid), or `undefined` when either main count is missing or not a valid count (a string, NaN, a negative number):
 * the caller then estimates instead of adding garbage to the run's totals.
 *
 * @internal
 */
export function readUsage(usage: unknown): TokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { prompt_tokens, completion_tokens, prompt_tokens_details, completion_tokens_details } = usage as Record<
    string,
    unknown
  >;
  const inputTokens = tokenCount(prompt_tokens);
  const outputTokens = tokenCount(completion_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  return withDetails(
    inputTokens,
    outputTokens,
    (prompt_tokens_details as { cached_tokens?: unknown } | null | undefined)?.cached_tokens,
    (completion_tokens_details as { reasoning_tokens?: unknown } | null | undefined)?.reasoning_tokens,
  );
}

/**
 * The token counts of a Responses API `usage` object (`input_tokens`, `output_tokens` as sent, plus the cached and
 * reasoning tokens they include when valid), or `undefined` when either main count is missing or not valid.
 *
 * @internal
 */
export function readResponsesUsage(usage: unknown): TokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { input_tokens, output_tokens, input_tokens_details, output_tokens_details } = usage as Record<string, unknown>;
  const inputTokens = tokenCount(input_tokens);
  const outputTokens = tokenCount(output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  return withDetails(
    inputTokens,
    outputTokens,
    (input_tokens_details as { cached_tokens?: unknown } | null | undefined)?.cached_tokens,
    (output_tokens_details as { reasoning_tokens?: unknown } | null | undefined)?.reasoning_tokens,
  );
}

/** The two counts, with the cached and reasoning tokens the endpoint reported as valid counts (both wires alike). */
function withDetails(inputTokens: number, outputTokens: number, cached: unknown, reasoning: unknown): TokenUsage {
  const cachedTokens = tokenCount(cached);
  const reasoningTokens = tokenCount(reasoning);
  return {
    inputTokens,
    outputTokens,
    ...(cachedTokens !== undefined && { cachedTokens }),
    ...(reasoningTokens !== undefined && { reasoningTokens }),
  };
}

/** The token counts of one model request: {@link LLMResponse}'s `usage`. */
export type TokenUsage = LLMResponse['usage'];

/**
 * The usage items a tool returned, keeping only well-formed ones: a `moduleName` string, and the numbers that are
 * valid (token counts as {@link tokenCount}, `totalPoints` as a finite non-negative number). Never throws, even on
 * throwing getters or a value that is not an array.
 *
 * @internal
 */
export function sanitizeUsages(value: unknown): UsageItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: UsageItem[] = [];
  for (const entry of value as unknown[]) {
    const item = sanitizeUsage(entry);
    if (item) items.push(item);
  }
  return items;
}

function sanitizeUsage(entry: unknown): UsageItem | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  try {
    const { moduleName, model, inputTokens, outputTokens, totalPoints } = entry as Record<string, unknown>;
    if (typeof moduleName !== 'string') return undefined;
    const input = tokenCount(inputTokens);
    const output = tokenCount(outputTokens);
    const points = typeof totalPoints === 'number' && Number.isFinite(totalPoints) && totalPoints >= 0;
    return {
      moduleName,
      ...(typeof model === 'string' && { model }),
      ...(input !== undefined && { inputTokens: input }),
      ...(output !== undefined && { outputTokens: output }),
      ...(points && { totalPoints: totalPoints }),
    };
  } catch {
    return undefined;
  }
}
