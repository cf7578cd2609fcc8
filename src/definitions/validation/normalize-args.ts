import type { ClassType } from '../../metadata/options';
import { isRecord } from '../../utils/is-record';
import type { FieldShape } from '../model/field-model';
import { getClassModel } from '../model/get-class-model';

/**
 * Prepare parsed arguments for validation, in place and through nested DTOs: delete the `null`s sent for
 * optional fields (strict mode makes models send `null` for every optional field they leave out, and a method
 * typed `days?: number` must receive `undefined`), then fill absent fields that declare a `default`.
 * A `null` for a required field is kept, and fails validation.
 *
 * @example normalizeArgs({ city: 'Oslo', days: null }, ForecastArgs) // → { city: 'Oslo', days: 3 } with `default: 3`
 *
 * @internal
 */
export function normalizeArgs(value: Record<string, unknown>, type: ClassType): void {
  for (const field of getClassModel(type).fields) {
    const present = Object.hasOwn(value, field.name);
    if (present && value[field.name] === null && field.optional) delete value[field.name];
    if (Object.hasOwn(value, field.name)) normalizeShape(value[field.name], field.shape);
    else if (field.default !== undefined) value[field.name] = structuredClone(field.default);
  }
}

function normalizeShape(value: unknown, shape: FieldShape): void {
  if (shape.kind === 'class' && isRecord(value)) normalizeArgs(value, shape.type);
  else if (shape.kind === 'array' && Array.isArray(value)) value.forEach((item) => normalizeShape(item, shape.items));
}
