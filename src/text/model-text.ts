import { MAX_ERROR_TEXT_LENGTH, DEFAULT_MAX_MODEL_TEXT_CHARS, DEFAULT_MAX_VALIDATION_LINES } from '../constants';
import { closestNames } from './closest-names';
import { maskSecrets } from './mask-secrets';

/**
 * How far past the cap text is kept for masking, so that a secret cut by the cap is still recognised (and
 * masked) by its full shape before the cut is made. Longer than any token shape the rules know.
 */
const MASK_MARGIN = 1_024;

/** Line breaks as JavaScript and the model see them: a stack trace may hide after any of them. */
const LINE_BREAK = /\r\n?|[\n\u2028\u2029\u0085\v\f]/;
const LINE_BREAKS = /\r\n?|[\u2028\u2029\u0085\v\f]/g;
/**
 * A frame of a V8 stack trace: indented (`    at fn (file.js:1:2)`), or not indented when a line break other
 * than `\n` took the indentation away but the position is there (`at fn (file.js:1:2)`).
 */
const STACK_FRAME = /^\s+at\s|^at\s.*:\d+:\d+\)?\s*$/;

/**
 * The text the model reads for any value: strings as they are, `undefined`/`null` as `''`, anything else as
 * JSON (bigints as decimal strings), or its `String()` form when it has no JSON form. Never throws, whatever
 * the value does (circular references, throwing `toJSON` or getters, revoked proxies).
 *
 * @example toModelText({ temp: 21n }) // '{"temp":"21"}'
 */
export function toModelText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'bigint') return value.toString();
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // BigInts nested in objects are the common case; a second pass with a replacer keeps them.
    try {
      const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      if (json !== undefined) return json;
    } catch {
      // Circular or hostile: fall back to String() below.
    }
  }
  // No JSON form: a circular object, a function, a symbol, or a hostile proxy.
  try {
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value === 'symbol') return value.toString();
    return Object.prototype.toString.call(value);
  } catch {
    return '';
  }
}

/**
 * Text agentcall writes for the model (validation, parser errors, not-found text): line breaks of every kind
 * made `\n`, stack-trace frames dropped, cut to `maxChars` and secrets masked. The text is cut (with a margin)
 * before it is masked, so the cost is bounded by the cap, not by the input; the margin means a secret crossing
 * the cut is masked whole before the cut is made.
 *
 * @example modelSafeText('x'.repeat(5000), 100).length // 100
 */
export function modelSafeText(text: string, maxChars: number = DEFAULT_MAX_MODEL_TEXT_CHARS): string {
  const raw = typeof text === 'string' ? text : toModelText(text);
  const window = raw.length > maxChars + MASK_MARGIN ? raw.slice(0, maxChars + MASK_MARGIN) : raw;
  const lines = window.replace(LINE_BREAKS, '\n').split('\n');
  const kept = lines.some((line) => STACK_FRAME.test(line)) ? lines.filter((line) => !STACK_FRAME.test(line)) : lines;
  const masked = maskSecrets(kept.join('\n'));
  if (masked.length <= maxChars && window.length === raw.length) return masked;
  return withCutNote(masked, maxChars, raw.length);
}

/**
 * One line of safe text from anything thrown: the first line only (so no stack trace, after `\n`, `\r` or
 * U+2028 alike), cut before it is masked, at most `maxChars` long.
 *
 * @internal
 */
export function firstLineSafeText(text: string, maxChars: number = MAX_ERROR_TEXT_LENGTH): string {
  const trimmed = text.trimStart();
  const end = trimmed.search(LINE_BREAK);
  const line = (end === -1 ? trimmed : trimmed.slice(0, end)).slice(0, maxChars + MASK_MARGIN).trim();
  return maskSecrets(line).slice(0, maxChars).trim();
}

/**
 * The text of a failed tool call: `Tool error: <safe text>`. The one place that prefix is written.
 *
 * @example toolErrorText('lookup timed out after 50 ms') // 'Tool error: lookup timed out after 50 ms'
 */
export function toolErrorText(safeText: string): string {
  return `Tool error: ${modelSafeText(safeText)}`;
}

/**
 * The text of arguments that could not be read: `Invalid arguments: <reason>`. The one place that prefix is written.
 *
 * @example invalidArgumentsText('not valid JSON') // 'Invalid arguments: not valid JSON'
 */
export function invalidArgumentsText(reason: string): string {
  return modelSafeText(`Invalid arguments: ${reason}`);
}

/**
 * A header and one line per problem, the first `maxLines` of them and then how many more (of `count` in all), as
 * safe text. Only the lines that are shown are ever joined, however many problems there are.
 *
 * @example problemListText('Invalid arguments for tool "save":', ['a: bad', 'b: bad'], 1)
 * // 'Invalid arguments for tool "save":\na: bad\n… and 1 more'
 */
export function problemListText(
  header: string,
  lines: readonly string[],
  maxLines: number = DEFAULT_MAX_VALIDATION_LINES,
  count: number = lines.length,
): string {
  const listed = lines.length > maxLines ? lines.slice(0, maxLines) : lines;
  const shown = count > listed.length ? [...listed, `… and ${count - listed.length} more`] : listed;
  return modelSafeText([header, ...shown].join('\n'));
}

/**
 * The text of a call to a tool that does not exist; the name the model made up is cut and masked like any text.
 * The closest few of `toolNames` (the set the model was offered) follow, so it can correct itself.
 *
 * @example toolNotFoundText('get_wether', ['get_weather', 'book']) // 'Call tool not found: get_wether (closest: get_weather)'
 */
export function toolNotFoundText(name: unknown, toolNames: readonly string[] = []): string {
  const text = typeof name === 'string' ? name : name === undefined ? 'undefined' : toModelText(name);
  const closest = typeof name === 'string' ? closestNames(name, toolNames, MAX_SUGGESTED_NAMES) : [];
  const suggestion = closest.length > 0 ? ` (closest: ${closest.join(', ')})` : '';
  return modelSafeText(`Call tool not found: ${text.slice(0, MAX_NAME_CHARS)}${suggestion}`);
}

/** Enough to correct a typo; the text stays short (at most 200 + 3 × 64 characters and a few more). */
const MAX_SUGGESTED_NAMES = 3;

/** Tool names are at most 64 characters (`TOOL_NAME_PATTERN`); a longer made-up one is shown in part. */
const MAX_NAME_CHARS = 200;

/** Cut `text` to `maxChars`, saying how long the original was, so the model knows it reads a part. */
function withCutNote(text: string, maxChars: number, originalLength: number): string {
  const note = ` … [cut: ${originalLength} characters]`;
  if (maxChars <= note.length) return text.slice(0, maxChars);
  return text.slice(0, maxChars - note.length) + note;
}
