import type { ValidationError } from 'class-validator';

/**
 * Flatten class-validator errors into one `path: message` line per failed check, walking nested errors
 * (`items[1].qty: qty must not be less than 1`). A required field that is absent gets one
 * `path: <name> is required` line instead of every check it failed.
 *
 * @example formatValidationErrors(validateSync(order)) // ['items[1].qty: qty must not be less than 1']
 *
 * @internal
 */
export function formatValidationErrors(errors: readonly ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const path = childPath(parentPath, error);
    return [...describe(error, path), ...formatValidationErrors(error.children ?? [], path)];
  });
}

function childPath(parentPath: string, error: ValidationError): string {
  if (error.property === undefined) return parentPath;
  if (Array.isArray(error.target)) return `${parentPath}[${error.property}]`;
  return parentPath === '' ? error.property : `${parentPath}.${error.property}`;
}

function describe(error: ValidationError, path: string): string[] {
  if (error.constraints === undefined) return [];
  const prefix = path === '' ? '' : `${path}: `;
  if (isMissing(error)) return [`${prefix}${error.property} is required`];
  return Object.values(error.constraints).map((message) => prefix + message);
}

function isMissing(error: ValidationError): boolean {
  const { target, property } = error;
  const value: unknown = error.value;
  if (property === undefined || value !== undefined) return false;
  return typeof target === 'object' && target !== null && !Object.hasOwn(target, property);
}
