import type { ValidationError } from 'class-validator';
import { holdsSecret, maskValue } from '../../text/mask-secrets';
import type { StandardSchemaIssue } from '../standard/standard-schema.types';

// class-validator's names for the checks that decide what kind of value a field holds.
const TYPE_CHECKS: ReadonlySet<string> = new Set([
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isObject',
  'isArray',
  'isIn',
  'isEnum',
  'nestedValidation',
  'whitelistValidation',
]);

/**
 * class-validator errors as Standard Schema issues: one per failed field, with the path as segments
 * (`['items', 1, 'qty']`). When a field's type check failed, only that is said (class-validator also reports
 * every bound the wrong-typed value missed); otherwise the field's messages share one issue, `; `-joined. The messages are the ones `parseParams` puts after `path: `, so the model and a
 * Standard Schema consumer read the same text.
 *
 * @internal
 */
export function validationIssues(
  errors: readonly ValidationError[],
  parentPath: readonly PropertyKey[] = [],
): StandardSchemaIssue[] {
  return errors.flatMap((error) => {
    const path = error.property === undefined ? parentPath : [...parentPath, segment(error)];
    return [...describe(error, path), ...validationIssues(error.children ?? [], path)];
  });
}

function segment(error: ValidationError): PropertyKey {
  return Array.isArray(error.target) && /^\d+$/.test(error.property) ? Number(error.property) : error.property;
}

function describe(error: ValidationError, path: readonly PropertyKey[]): StandardSchemaIssue[] {
  if (error.constraints === undefined) return [];
  const at = path.length > 0 ? { path } : {};
  if (isMissing(error)) return [{ message: `${error.property} is required`, ...at }];
  const typeCheck = Object.keys(error.constraints).find((name) => TYPE_CHECKS.has(name));
  const messages = typeCheck ? [error.constraints[typeCheck]] : Object.values(error.constraints);
  return [{ message: withoutSecretValue(messages.join('; '), error), ...at }];
}

/**
 * A message of a secret-holding field (`password`, `apiKey`) with the field's value taken out wherever it
 * repeats it (a `$value` in a custom message): masking alone cannot tell a value with no known shape from the
 * words of the message around it.
 */
function withoutSecretValue(message: string, error: ValidationError): string {
  const value: unknown = error.value;
  const text =
    typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? `${value}` : '';
  return text && holdsSecret(error.property) ? maskValue(message, text) : message;
}

// JSON carries no `undefined`: a field that holds it was left out, also when the class defines every field on its
// instances (`useDefineForClassFields`), where it is an own property set to `undefined` before any value arrives.
function isMissing(error: ValidationError): boolean {
  const { target, property } = error;
  const value: unknown = error.value;
  return property !== undefined && value === undefined && typeof target === 'object' && target !== null;
}
