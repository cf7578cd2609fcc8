import 'reflect-metadata';

// The only module that touches the Reflect metadata API.

/**
 * The parameter types TypeScript emitted for a method (`undefined` when it emitted none, e.g. under esbuild).
 *
 * @internal
 */
export function reflectParamTypes(target: Function, methodName: string): readonly unknown[] | undefined {
  return Reflect.getMetadata('design:paramtypes', target.prototype, methodName);
}

/**
 * The type TypeScript emitted for a decorated property (`undefined` when it emitted none).
 *
 * @internal
 */
export function reflectPropertyType(target: Function, propertyName: string): unknown {
  return Reflect.getMetadata('design:type', target.prototype, propertyName);
}

/**
 * Record a property type the way TypeScript would have, for classes built at run time.
 *
 * @internal
 */
export function defineDesignType(target: Function, propertyName: string, type: unknown): void {
  Reflect.defineMetadata('design:type', type, target.prototype, propertyName);
}
