import type { ValidationError } from 'class-validator';
import { validationIssues } from './validation-issues';

/**
 * Flatten class-validator errors into one `path: message` line per failed field, walking nested errors
 * (`items[1].qty: qty must not be less than 1`). The lines are {@link validationIssues} with their paths
 * written out, so the model and a Standard Schema consumer read the same text.
 *
 * @example formatValidationErrors(validateSync(order)) // ['items[1].qty: qty must not be less than 1']
 *
 * @internal
 */
export function formatValidationErrors(errors: readonly ValidationError[]): string[] {
  return validationIssues(errors).map(({ message, path }) =>
    path === undefined || path.length === 0 ? message : `${formatPath(path)}: ${message}`,
  );
}

// A Standard Schema path segment may be a `{ key }` object (the spec allows both); agentcall writes bare keys.
function formatPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path
    .map((part) => (typeof part === 'object' ? part.key : part))
    .map((segment, i) =>
      typeof segment === 'number' ? `[${segment}]` : i === 0 ? String(segment) : `.${String(segment)}`,
    )
    .join('');
}
