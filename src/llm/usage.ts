import type { UsageItem } from './type';

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
 * The token counts of an endpoint's `usage` object, or `undefined` when either is missing or not a valid count
 * (a string, NaN, a negative number): the caller then estimates instead of adding garbage to the run's totals.
 *
 * @internal
 */
export function readUsage(usage: unknown): { inputTokens: number; outputTokens: number } | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { prompt_tokens, completion_tokens } = usage as Record<string, unknown>;
  const inputTokens = tokenCount(prompt_tokens);
  const outputTokens = tokenCount(completion_tokens);
  return inputTokens === undefined || outputTokens === undefined ? undefined : { inputTokens, outputTokens };
}

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
