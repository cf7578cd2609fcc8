import type { ClassType } from '../../metadata/options';
import type { FieldShape } from '../model/field-model';
import { getClassModel } from '../model/get-class-model';

/**
 * Delete the `null`s sent for optional fields, in place and through nested DTOs, so that a method typed
 * `days?: number` receives `undefined`, never `null`. Strict mode makes models send `null` for every
 * optional field they leave out; a `null` for a required field is kept, and fails validation.
 *
 * @example stripOptionalNulls({ city: 'Oslo', days: null }, ForecastArgs) // → { city: 'Oslo' }
 *
 * @internal
 */
export function stripOptionalNulls(value: Record<string, unknown>, type: ClassType): void {
  for (const field of getClassModel(type).fields) {
    if (!Object.hasOwn(value, field.name)) continue;
    const fieldValue = value[field.name];
    if (fieldValue === null && field.optional) delete value[field.name];
    else stripShape(fieldValue, field.shape);
  }
}

function stripShape(value: unknown, shape: FieldShape): void {
  if (shape.kind === 'class' && isRecord(value)) stripOptionalNulls(value, shape.type);
  else if (shape.kind === 'array' && Array.isArray(value)) value.forEach((item) => stripShape(item, shape.items));
}

/**
 * Whether `value` is a JSON object (not an array, not null).
 *
 * @internal
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
