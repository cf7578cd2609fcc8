import JSON5 from 'json5';
import { DEFAULT_MAX_ARGS_DEPTH, DEFAULT_MAX_ARGS_LENGTH, FORBIDDEN_KEYS } from '../constants';
import type { ToolParseResult } from './type';

/** Limits applied by {@link safeParseJsonArgs}. */
export type JsonArgsLimits = {
  /** Longest raw string accepted, in characters. */
  maxLength?: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth?: number;
};

/**
 * Parse tool arguments the way models actually send them, never throwing.
 *
 * An empty string is `{}` (many models send nothing for a tool without parameters). Text around the JSON
 * (prose, code fences) is cut away: the slice runs from the first `{`/`[` to the last `}`/`]`. JSON5 is
 * accepted (single quotes, unquoted keys, trailing commas). `__proto__`, `constructor` and `prototype` keys
 * are dropped. Returns `undefined` when nothing parses.
 *
 * @example parseJsonArgs('```json\n{"city": "Paris",}\n```') // { city: 'Paris' }
 */
export function parseJsonArgs(raw: string): unknown {
  // Providers have sent null and already-parsed objects here; only text is parsed, nothing else may throw.
  if (typeof raw !== 'string') return raw === undefined || raw === null ? {} : undefined;
  const text = sliceJsonStr(raw);
  if (text === '') return {};
  try {
    return JSON.parse(text, dropForbiddenKeys);
  } catch {
    try {
      return JSON5.parse(text, dropForbiddenKeys);
    } catch {
      return undefined;
    }
  }
}

/**
 * {@link parseJsonArgs} with limits and a readable failure, for parsers that must tell the model what went wrong.
 */
export function safeParseJsonArgs(raw: string, limits: JsonArgsLimits = {}): ToolParseResult<unknown> {
  const maxLength = limits.maxLength ?? DEFAULT_MAX_ARGS_LENGTH;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_ARGS_DEPTH;
  const text = raw ?? '';
  if (text.length > maxLength) {
    return {
      success: false,
      errorMessage: `Invalid arguments: ${text.length} characters exceeds the limit of ${maxLength}`,
    };
  }
  // Measured on the raw text, so a hostile depth is refused before the recursive parser sees it.
  if (exceedsDepth(text, maxDepth)) {
    return { success: false, errorMessage: `Invalid arguments: nesting deeper than ${maxDepth} levels` };
  }
  const data = parseJsonArgs(text);
  if (data === undefined) {
    return { success: false, errorMessage: 'Invalid arguments: not valid JSON' };
  }
  return { success: true, data };
}

/** Trim, then cut from the first `{`/`[` to the last `}`/`]`; brackets are not balanced. */
export function sliceJsonStr(input: string): string {
  const str = input.trim();
  const start = str.search(/[{[]/);
  if (start === -1) return str;
  for (let end = str.length - 1; end > start; end--) {
    const ch = str[end];
    if (ch === '}' || ch === ']') return str.slice(start, end + 1);
  }
  return str;
}

function dropForbiddenKeys(key: string, value: unknown): unknown {
  return FORBIDDEN_KEYS.has(key) ? undefined : value;
}

function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === inString) inString = null;
    } else if (ch === '"' || ch === "'") {
      inString = ch;
    } else if (ch === '{' || ch === '[') {
      if (++depth > maxDepth) return true;
    } else if (ch === '}' || ch === ']') {
      depth--;
    }
  }
  return false;
}
