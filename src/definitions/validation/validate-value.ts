import type { ClassType } from '../../metadata/options';
import { safeParseJsonArgs } from '../../toolCall/parse-json-args';
import type { StandardSchemaResult } from '../standard/standard-schema.types';
import { isRecord } from '../../utils/is-record';
import { validateArgs } from './validate-args';
import { validationIssues } from './validation-issues';

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
  const checked = validateArgs(argsClass, copy);
  return checked.ok ? { value: checked.value } : { issues: validationIssues(checked.errors) };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
