import JSON5 from 'json5';
import { DEFAULT_MAX_ARGS_DEPTH, DEFAULT_MAX_ARGS_KEYS, DEFAULT_MAX_ARGS_LENGTH, FORBIDDEN_KEYS } from '../constants';
import { jsonErrorDetail } from './json-error-detail';
import { invalidArgumentsText } from '../text/model-text';
import type { ToolParseResult } from './type';

/** Limits applied by {@link safeParseJsonArgs}: its second argument. */
export type JsonArgsLimits = NonNullable<Parameters<typeof safeParseJsonArgs>[1]>;

/**
 * Why arguments could not be read, and the reason in words (without the `Invalid arguments:` prefix, which
 * is added once, where the text is handed to the model).
 *
 * @internal
 */
export type JsonArgsFailure = { reason: 'too_long' | 'too_deep' | 'too_many_keys' | 'not_json'; detail: string };

/**
 * Parse tool arguments the way models actually send them, never throwing.
 *
 * An empty string is `{}` (many models send nothing for a tool without parameters). Text around the JSON
 * (prose, code fences) is cut away: the slice runs from the first `{`/`[` to the last `}`/`]`. JSON5 is
 * accepted (single quotes, unquoted keys, trailing commas). `__proto__`, `constructor` and `prototype` keys
 * are dropped. Returns `undefined` when nothing parses. No limits apply here, so it can read any text you trust;
 * `runTool` applies the default size, depth and key caps before it for tools without `parseParams`, and
 * {@link safeParseJsonArgs} applies them (or yours) in a `parseParams`.
 *
 * @example parseJsonArgs('```json\n{"city": "Paris",}\n```') // { city: 'Paris' }
 */
export function parseJsonArgs(raw: string): unknown {
  // Providers have sent null and already-parsed objects here; only text is parsed, nothing else may throw.
  if (typeof raw !== 'string') return raw === undefined || raw === null ? {} : undefined;
  const read = readJsonArgs(raw, UNLIMITED);
  return 'data' in read ? read.data : undefined;
}

const UNLIMITED: JsonArgsLimits = { maxLength: Infinity, maxDepth: Infinity, maxKeys: Infinity };

/**
 * How `runTool` reads the arguments of a tool without `parseParams`: {@link parseJsonArgs}'s lenient result
 * (`{}` for nothing, `undefined` for text that does not parse, which the tool still receives), except that
 * arguments past the default caps (`DEFAULT_MAX_ARGS_LENGTH`, `_DEPTH`, `_KEYS`, counted on the text the parser
 * reads) are refused with `Invalid arguments: <which cap>`, so a hand-written tool never receives them.
 *
 * @example parseDefaultArgs('Here\'s the call: ' + '['.repeat(65) + ']'.repeat(65))
 * // { success: false, errorMessage: 'Invalid arguments: nesting deeper than 64 levels' }
 *
 * @internal
 */
export function parseDefaultArgs(raw: string): ToolParseResult<unknown> {
  if (typeof raw !== 'string') return { success: true, data: parseJsonArgs(raw) };
  const read = readJsonArgs(raw);
  if ('data' in read) return { success: true, data: read.data };
  if (read.reason === 'not_json') return { success: true, data: undefined };
  return { success: false, errorMessage: invalidArgumentsText(read.detail) };
}

/**
 * {@link parseJsonArgs} with limits and a readable failure, for parsers that must tell the model what went wrong.
 */
export function safeParseJsonArgs(
  raw: string,
  limits: {
    /** Longest raw string accepted, in characters. */
    maxLength?: number;
    /** Deepest nesting of arrays and objects accepted. */
    maxDepth?: number;
    /** Most keys one object may have. */
    maxKeys?: number;
  } = {},
): ToolParseResult<unknown> {
  const read = readJsonArgs(raw ?? '', limits);
  return 'data' in read
    ? { success: true, data: read.data }
    : { success: false, errorMessage: invalidArgumentsText(read.detail) };
}

/**
 * The parse behind {@link safeParseJsonArgs}: the data, or why there is none. Every limit is checked on the
 * text the parser will actually read (the slice), in one linear pass, before the parser sees it.
 *
 * @internal
 */
export function readJsonArgs(raw: string, limits: JsonArgsLimits = {}): { data: unknown } | JsonArgsFailure {
  const maxLength = limits.maxLength ?? DEFAULT_MAX_ARGS_LENGTH;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_ARGS_DEPTH;
  const maxKeys = limits.maxKeys ?? DEFAULT_MAX_ARGS_KEYS;
  const text = typeof raw === 'string' ? raw : '';
  if (text.length > maxLength) {
    return { reason: 'too_long', detail: `${text.length} characters exceeds the limit of ${maxLength}` };
  }
  const slice = sliceJsonStr(text);
  if (slice === '') return { data: {} };
  const shape = maxDepth === Infinity && maxKeys === Infinity ? 'ok' : measureJson(slice, maxDepth, maxKeys);
  if (shape === 'too_deep') return { reason: 'too_deep', detail: `nesting deeper than ${maxDepth} levels` };
  if (shape === 'too_many_keys') {
    return { reason: 'too_many_keys', detail: `an object with more than ${maxKeys} keys` };
  }
  try {
    return { data: MAY_SPELL_FORBIDDEN_KEY.test(slice) ? JSON.parse(slice, dropForbiddenKeys) : JSON.parse(slice) };
  } catch {
    try {
      return { data: JSON5.parse(slice, dropForbiddenKeys) };
    } catch (error) {
      return { reason: 'not_json', detail: jsonErrorDetail(error, text, sliceStartIn(text)) };
    }
  }
}

/**
 * Strict JSON under the same caps as tool arguments (length, then depth and keys in one linear pass, before the
 * parser sees it), forbidden keys dropped: for text that must be JSON as it is (a typed final answer), with no
 * slicing and no JSON5.
 *
 * @internal
 */
export function readStrictJson(text: string, limits: JsonArgsLimits = {}): { data: unknown } | JsonArgsFailure {
  const maxLength = limits.maxLength ?? DEFAULT_MAX_ARGS_LENGTH;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_ARGS_DEPTH;
  const maxKeys = limits.maxKeys ?? DEFAULT_MAX_ARGS_KEYS;
  if (text.length > maxLength) {
    return { reason: 'too_long', detail: `${text.length} characters exceeds the limit of ${maxLength}` };
  }
  const shape = measureJson(text, maxDepth, maxKeys);
  if (shape === 'too_deep') return { reason: 'too_deep', detail: `nesting deeper than ${maxDepth} levels` };
  if (shape === 'too_many_keys') return { reason: 'too_many_keys', detail: `an object with more than ${maxKeys} keys` };
  try {
    return { data: MAY_SPELL_FORBIDDEN_KEY.test(text) ? JSON.parse(text, dropForbiddenKeys) : JSON.parse(text) };
  } catch (error) {
    return { reason: 'not_json', detail: jsonErrorDetail(error, text, 0) };
  }
}

/** Where {@link sliceJsonStr}'s slice of `input` begins in it. */
function sliceStartIn(input: string): number {
  const lead = input.length - input.trimStart().length;
  return lead + Math.max(0, input.slice(lead).search(/[{[]/));
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

/**
 * Text that may hold a forbidden key, literally or through an escape. A reviver makes `JSON.parse` several times
 * slower, so text that cannot spell one is parsed without it (to the same result).
 */
const MAY_SPELL_FORBIDDEN_KEY = new RegExp([...FORBIDDEN_KEYS, '\\\\'].join('|'));

function dropForbiddenKeys(key: string, value: unknown): unknown {
  return FORBIDDEN_KEYS.has(key) ? undefined : value;
}

const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125; // }
const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93; // ]
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACKSLASH = 92;
const SLASH = 47;
const STAR = 42;
const COLON = 58;

/**
 * Depth and keys per object of `text`, read with JSON5's lexical rules (which agree with JSON's on any text
 * JSON accepts): brackets inside `"…"` and `'…'` strings and inside `//` and `/* *\/` comments do not count.
 * Keys are counted as the colons directly inside an object. One pass, no recursion.
 */
function measureJson(text: string, maxDepth: number, maxKeys: number): 'ok' | 'too_deep' | 'too_many_keys' {
  const kinds: number[] = [];
  const keys: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === DOUBLE_QUOTE || ch === SINGLE_QUOTE) {
      i = skipString(text, i, ch);
    } else if (ch === SLASH && text.charCodeAt(i + 1) === SLASH) {
      i = skipLineComment(text, i + 2);
    } else if (ch === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      if (kinds.length >= maxDepth) return 'too_deep';
      kinds.push(ch);
      keys.push(0);
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      kinds.pop();
      keys.pop();
    } else if (ch === COLON && kinds[kinds.length - 1] === OPEN_OBJECT) {
      if (++keys[keys.length - 1] > maxKeys) return 'too_many_keys';
    }
  }
  return 'ok';
}

/** Index of the quote that closes the string opened at `start` (or the end of the text). */
function skipString(text: string, start: number, quote: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === BACKSLASH) i++;
    else if (ch === quote) return i;
  }
  return text.length;
}

/** Index of the line break that ends a `//` comment (JSON5 ends it at \n, \r, U+2028 or U+2029). */
function skipLineComment(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || ch === 13 || ch === 0x2028 || ch === 0x2029) return i;
  }
  return text.length;
}
