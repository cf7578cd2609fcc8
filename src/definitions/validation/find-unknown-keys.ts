import type { ClassType } from '../../metadata/options';
import type { FieldShape } from '../model/field-model';
import { getClassModel } from '../model/get-class-model';
import { isRecord } from '../../utils/is-record';

/** The keys found that the arguments class does not declare: the first few as lines, and how many in all. */
export type UnknownKeys = { lines: string[]; count: number };

/**
 * One `path: property <key> should not exist` line (class-validator's own wording) for each key the arguments
 * class and its nested DTOs do not declare (the first `maxLines`; all are counted). Run before class-transformer
 * sees the object, whose key handling grows with the square of the number of keys; linear in the size of the value.
 *
 * @example findUnknownKeys({ city: 'Oslo', x: 1 }, WeatherArgs, 20) // { lines: ['x: property x should not exist'], count: 1 }
 *
 * @internal
 */
export function findUnknownKeys(value: Record<string, unknown>, type: ClassType, maxLines: number): UnknownKeys {
  const found: UnknownKeys = { lines: [], count: 0 };
  checkClass(value, type, '', found, maxLines);
  return found;
}

const shapesByClass = new WeakMap<ClassType, ReadonlyMap<string, FieldShape>>();

/** The declared fields of a class by name, built once per class. */
function shapesOf(type: ClassType): ReadonlyMap<string, FieldShape> {
  let shapes = shapesByClass.get(type);
  if (!shapes) {
    shapes = new Map(getClassModel(type).fields.map((field) => [field.name, field.shape]));
    shapesByClass.set(type, shapes);
  }
  return shapes;
}

function checkClass(value: Record<string, unknown>, type: ClassType, path: string, found: UnknownKeys, max: number) {
  const byName = shapesOf(type);
  for (const key of Object.keys(value)) {
    const shape = byName.get(key);
    if (shape !== undefined) checkShape(value[key], shape, path === '' ? key : `${path}.${key}`, found, max);
    else if (found.count++ < max) {
      found.lines.push(`${path === '' ? key : `${path}.${key}`}: property ${key} should not exist`);
    }
  }
}

function checkShape(value: unknown, shape: FieldShape, path: string, found: UnknownKeys, max: number): void {
  if (shape.kind === 'class' && isRecord(value)) checkClass(value, shape.type, path, found, max);
  else if (shape.kind === 'array' && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkShape(value[i], shape.items, `${path}[${i}]`, found, max);
  }
}
