import 'reflect-metadata';
import type { ClassRef } from './options';

// The only module that touches the Reflect metadata API.

/**
 * The parameter types TypeScript emitted for a method (`undefined` when it emitted none, e.g. under esbuild).
 *
 * @internal
 */
export function reflectParamTypes(target: ClassRef, methodName: string): readonly unknown[] | undefined {
  return Reflect.getMetadata('design:paramtypes', target.prototype as object, methodName) as
    readonly unknown[] | undefined;
}

/**
 * The type TypeScript emitted for a decorated property (`undefined` when it emitted none).
 *
 * @internal
 */
export function reflectPropertyType(target: ClassRef, propertyName: string): unknown {
  return Reflect.getMetadata('design:type', target.prototype as object, propertyName) as unknown;
}

/**
 * Record a property type the way TypeScript would have, for classes built at run time.
 *
 * @internal
 */
export function defineDesignType(target: ClassRef, propertyName: string, type: unknown): void {
  Reflect.defineMetadata('design:type', type, target.prototype as object, propertyName);
}
