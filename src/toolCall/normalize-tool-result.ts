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
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
