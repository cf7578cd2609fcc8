import { TransformationType, plainToInstance, type ClassConstructor } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { ClassType } from '../../metadata/options';
import { getClassModel } from '../model/get-class-model';
import { validationClassOf } from './validation-class';

/**
 * Per arguments class: the declared fields class-transformer copies as they are when their value is not an
 * object (no `@Type`, `@Transform`, `@Expose` or `@Exclude` anywhere on its validation class, and no accessor of
 * that name on its prototype), or `undefined` when the class carries class-level transform metadata.
 */
const copiedAsIs = new WeakMap<ClassType, ReadonlySet<string> | undefined>();

function fieldsCopiedAsIs(argsClass: ClassType, type: ClassType): ReadonlySet<string> | undefined {
  if (copiedAsIs.has(argsClass)) return copiedAsIs.get(argsClass);
  let fields: Set<string> | undefined;
  const storage = defaultMetadataStorage;
  if (
    storage.getStrategy(type) === 'none' &&
    storage.getExposedMetadatas(type).length === 0 &&
    storage.getExcludedMetadatas(type).length === 0
  ) {
    fields = new Set();
    for (const { name } of getClassModel(argsClass).fields) {
      const descriptor = Object.getOwnPropertyDescriptor(type.prototype, name);
      if (
        descriptor === undefined &&
        storage.findTypeMetadata(type, name) === undefined &&
        storage.findTransformMetadatas(type, name, TransformationType.PLAIN_TO_CLASS).length === 0
      )
        fields.add(name);
    }
  }
  copiedAsIs.set(argsClass, fields);
  return fields;
}

/**
 * `plainToInstance(validationClassOf(argsClass), args)` for parsed JSON arguments. When every key is a declared
 * field that class-transformer would copy as it is, and every value is a string, number, boolean or null, the
 * instance is built directly (class-transformer's own steps for that case: construct, skip keys whose current
 * value is a function, assign); anything else goes through class-transformer.
 *
 * @internal
 */
export function toValidationInstance<T extends object>(argsClass: ClassType<T>, args: Record<string, unknown>): T {
  const type = validationClassOf(argsClass);
  const fields = fieldsCopiedAsIs(argsClass, type);
  const keys = Object.keys(args);
  if (fields === undefined || !allCopiedAsIs(keys, args, fields)) {
    // class-transformer types classes with `any[]` constructor arguments; it calls them with none.
    return plainToInstance(type as ClassConstructor<T>, args);
  }
  const instance = new type() as Record<string, unknown>;
  for (const key of keys) if (!(instance[key] instanceof Function)) instance[key] = args[key];
  return instance as T;
}

function allCopiedAsIs(keys: readonly string[], args: Record<string, unknown>, fields: ReadonlySet<string>): boolean {
  for (const key of keys) {
    const value = args[key];
    if (!fields.has(key) || (typeof value === 'object' && value !== null)) return false;
  }
  return true;
}
