import type { ClassType } from '../../metadata/options';

// Built-ins reflect like classes but carry no field metadata, so they can never be an arguments object.
const BUILT_INS: ReadonlySet<unknown> = new Set<unknown>([
  Object,
  Array,
  Function,
  Promise,
  Date,
  Map,
  Set,
  WeakMap,
  WeakSet,
  RegExp,
  Error,
  Symbol,
  BigInt,
  String,
  Number,
  Boolean,
]);

/**
 * Whether `value` is a user class that can describe an object's fields (a DTO).
 *
 * @internal
 */
export function isDtoClass(value: unknown): value is ClassType {
  return typeof value === 'function' && value.prototype !== undefined && !BUILT_INS.has(value);
}

/**
 * A short, readable name for a reflected or given type, for problem messages.
 *
 * @internal
 */
export function typeName(value: unknown): string {
  if (typeof value === 'function') return value.name || 'an anonymous class';
  return String(value);
}
