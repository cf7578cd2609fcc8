import type { ValidationError } from 'class-validator';
import type { StandardSchemaIssue } from '../standard/standard-schema.types';

/**
 * class-validator errors as Standard Schema issues: one per failed check, with the path as segments
 * (`['items', 1, 'qty']`). The messages are the ones `parseParams` puts after `path: `, so the model and a
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
  return Object.values(error.constraints).map((message) => ({ message, ...at }));
}

function isMissing(error: ValidationError): boolean {
  const { target, property } = error;
  const value: unknown = error.value;
  if (property === undefined || value !== undefined) return false;
  return typeof target === 'object' && target !== null && !Object.hasOwn(target, property);
}
