import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import type { ClassType } from '../../metadata/options';
import { safeParseJsonArgs } from '../../toolCall/parse-json-args';
import { getClassModel } from '../model/get-class-model';
import type { StandardSchemaResult } from '../standard/standard-schema.types';
import { isRecord, stripOptionalNulls } from './strip-optional-nulls';
import { validationIssues } from './validation-issues';

// The same options as parseParams: unknown properties are reported, never silently dropped.
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

/**
 * Validate an already-parsed value against an arguments class, the way `parseParams` validates the model's
 * text: a JSON copy (so the caller's object is never changed, and prototype keys and size limits are handled by
 * the same parser), optional nulls dropped, `plainToInstance`, `validateSync`. Returns the validated instance
 * or the issues with their paths.
 *
 * @example validateValue(OrderDto, { items: [{ qty: 0 }] }) // { issues: [{ message: 'qty must not be less than 1', path: ['items', 0, 'qty'] }] }
 *
 * @internal
 */
export function validateValue<T extends object>(argsClass: ClassType<T>, value: unknown): StandardSchemaResult<T> {
  if (!isRecord(value)) return { issues: [{ message: `the value must be an object, not ${describe(value)}` }] };
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return { issues: [{ message: 'the value cannot be represented as JSON' }] };
  }
  const parsed = safeParseJsonArgs(text);
  if (!parsed.success) return { issues: [{ message: parsed.errorMessage.replace(/^Invalid arguments: /, '') }] };
  const copy = parsed.data as Record<string, unknown>;
  stripOptionalNulls(copy, argsClass);
  const instance = plainToInstance(argsClass as ClassConstructor<T>, copy);
  const issues =
    getClassModel(argsClass).fields.length === 0
      ? Object.keys(copy).map((key) => ({ message: `property ${key} should not exist`, path: [key] }))
      : validationIssues(validateSync(instance, VALIDATOR_OPTIONS));
  return issues.length > 0 ? { issues } : { value: instance };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
