import { DEFAULT_MAX_VALIDATION_LINES } from '../../constants';
import type { ClassType } from '../../metadata/options';
import { problemListText } from '../../text/model-text';
import { readJsonArgs } from '../../toolCall/parse-json-args';
import type { ToolParseResult } from '../../toolCall/type';
import { findUnknownKeys } from './find-unknown-keys';
import { formatValidationErrors } from './format-validation-errors';
import { isRecord } from '../../utils/is-record';
import { validateArgs } from './validate-args';

/**
 * Build a tool's `parseParams`: JSON text (size, depth and keys per object capped) → object check → unknown keys
 * refused → optional nulls dropped → `plainToInstance` → `validateSync`. A failure reads
 * `Invalid arguments for tool "<name>":` followed by one `path: message` line per problem (the first
 * `DEFAULT_MAX_VALIDATION_LINES`, then how many more), so the model can correct its call; the text is capped and
 * masked like all text the model reads. Prototype keys are dropped by the JSON parser and never reach an object.
 *
 * Validation is synchronous (`parseParams` returns a value): async class-validator checks are not run.
 *
 * @example
 * createParseParams('getWeather', GetWeatherArgs)('{"city": 3}')
 * // { success: false, errorMessage: 'Invalid arguments for tool "getWeather":\ncity: city must be a string' }
 *
 * @internal
 */
export function createParseParams(
  toolName: string,
  argsClass: ClassType,
): (rawArgs: string) => ToolParseResult<object> {
  const header = `Invalid arguments for tool "${toolName}":`;
  const fail = (lines: readonly string[], count = lines.length): ToolParseResult<object> => ({
    success: false,
    errorMessage: problemListText(header, lines, DEFAULT_MAX_VALIDATION_LINES, count),
  });
  return (rawArgs) => {
    const parsed = readJsonArgs(rawArgs);
    if (!('data' in parsed)) return fail([parsed.detail]);
    const args = parsed.data;
    if (!isRecord(args)) return fail([`the arguments must be a JSON object, not ${describeJson(args)}`]);
    // Before class-transformer, whose key handling grows with the square of the number of keys: past the lines
    // that would be listed, the unknown keys alone are reported; a few are left to class-validator, in its order.
    const unknown = findUnknownKeys(args, argsClass, DEFAULT_MAX_VALIDATION_LINES);
    if (unknown.count > DEFAULT_MAX_VALIDATION_LINES) return fail(unknown.lines, unknown.count);
    const checked = validateArgs(argsClass, args);
    return checked.ok ? { success: true, data: checked.value } : fail(formatValidationErrors(checked.errors));
  };
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
