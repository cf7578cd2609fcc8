import type { ToolExecuteResult } from './type';

/**
 * Make whatever a hand-written `execute` resolved with into a well-formed result, so one sloppy tool
 * (a bare string, `undefined`, a number in `response`) cannot corrupt the message history.
 */
export function normalizeToolResult(value: unknown): ToolExecuteResult {
  if (value !== null && typeof value === 'object' && 'response' in value) {
    const result = value as ToolExecuteResult;
    return typeof result.response === 'string' ? result : { ...result, response: stringifyResponse(result.response) };
  }
  return { response: stringifyResponse(value) };
}

/** Text for the model from any value: strings as they are, nothing as `''`, the rest as JSON. */
export function stringifyResponse(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  // What JSON cannot show (a function, a symbol, a circular object) falls back to its own text.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only values JSON cannot show reach here (functions, symbols, primitives)
  const fallback = () => String(value);
  try {
    return JSON.stringify(value) ?? fallback();
  } catch {
    return fallback();
  }
}
