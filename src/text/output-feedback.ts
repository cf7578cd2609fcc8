import { MAX_ERROR_TEXT_LENGTH, MAX_OUTPUT_FEEDBACK_LINES } from '../constants';
import { firstLineSafeText } from './model-text';

/** The path of a problem with the whole answer, in its `path: message` line. */
const ROOT_PATH = '(root)';

/** The one line of an answer that is not JSON at all. */
export const NOT_JSON_LINE = `${ROOT_PATH}: the answer is not JSON; answer with only the JSON value, without prose`;

/**
 * One `path: message` line per problem (`items[1].qty: qty must not be less than 1`), each on one line, masked and
 * cut; past `MAX_OUTPUT_FEEDBACK_LINES` the rest are counted in a last line.
 *
 * @example issueLines([{ message: 'qty must not be less than 1', path: ['items', 1, 'qty'] }]) // ['items[1].qty: qty must not be less than 1']
 */
export function issueLines(
  issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<unknown> }>,
): string[] {
  const shown = issues.slice(0, MAX_OUTPUT_FEEDBACK_LINES).map(({ message, path }) => {
    const line = `${formatPath(path)}: ${typeof message === 'string' ? message : 'is invalid'}`;
    return firstLineSafeText(line.replace(/[\r\n\u2028\u2029]+/g, ' '), MAX_ERROR_TEXT_LENGTH);
  });
  const more = issues.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more problem${more === 1 ? '' : 's'}`);
  return shown.length ? shown : [`${ROOT_PATH}: is invalid`];
}

/**
 * The feedback message after an answer failed the output schema: what to fix, one `path: message` line each.
 *
 * @example outputFeedback(['qty: qty must not be less than 1'])
 */
export function outputFeedback(lines: readonly string[]): string {
  return (
    'Your final answer does not match the required output schema. Fix these problems and answer again with only ' +
    `the JSON value:\n${lines.join('\n')}`
  );
}

/**
 * The instructions that carry the output schema to a provider without structured output.
 *
 * @example outputInstructions('OrderDto', { type: 'object', properties: { id: { type: 'string' } } })
 */
export function outputInstructions(name: string, schema: Record<string, unknown>): string {
  return (
    `When you give your final answer (a reply without tool calls), reply with only a JSON value, without prose or ` +
    `code fences, that matches this JSON Schema (named ${name}):\n${JSON.stringify(schema)}`
  );
}

function formatPath(path: ReadonlyArray<unknown> | undefined): string {
  if (!path || path.length === 0) return ROOT_PATH;
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null && 'key' in segment ? segment.key : segment;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || ROOT_PATH;
}
