import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import type { ClassType } from '../../metadata/options';
import { safeParseJsonArgs } from '../../toolCall/parse-json-args';
import type { ToolParseResult } from '../../toolCall/type';
import { formatValidationErrors } from './format-validation-errors';
import { getClassModel } from '../model/get-class-model';
import { isRecord, stripOptionalNulls } from './strip-optional-nulls';

// Unknown properties are reported, not silently dropped: the model learns its mistake.
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

/**
 * Build a tool's `parseParams`: JSON text → object check → optional nulls dropped → `plainToInstance` →
 * `validateSync`. A failure reads `Invalid arguments for tool "<name>":` followed by one `path: message`
 * line per problem, so the model can correct its call. Prototype keys are dropped by the JSON parser and
 * never reach an object.
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
  const fail = (lines: readonly string[]): ToolParseResult<object> => ({
    success: false,
    errorMessage: [header, ...lines].join('\n'),
  });
  return (rawArgs) => {
    const parsed = safeParseJsonArgs(rawArgs);
    if (!parsed.success) return fail([parsed.errorMessage.replace(/^Invalid arguments: /, '')]);
    const args = parsed.data;
    if (!isRecord(args)) return fail([`the arguments must be a JSON object, not ${describeJson(args)}`]);
    stripOptionalNulls(args, argsClass);
    // class-transformer types classes with `any[]` constructor arguments; it calls them with none.
    const instance = plainToInstance(argsClass as ClassConstructor<object>, args);
    const lines =
      getClassModel(argsClass).fields.length === 0
        ? Object.keys(args).map((key) => `${key}: property ${key} should not exist`) // class-validator refuses a class with no checks at all
        : formatValidationErrors(validateSync(instance, VALIDATOR_OPTIONS));
    return lines.length > 0 ? fail(lines) : { success: true, data: instance };
  };
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
