import { UseFilters, UseGuards, UseInterceptors, UsePipes } from '@nestjs/common';

/**
 * The reflect-metadata keys under which `@UseGuards`, `@UseInterceptors`, `@UsePipes` and `@UseFilters` record
 * their enhancers, read from the public decorators themselves so no Nest-internal constant is imported.
 */
const ENHANCER_KEYS: readonly (string | symbol)[] = [
  keyOf(UseGuards({ canActivate: () => true })),
  keyOf(UseInterceptors({ intercept: (_context, next) => next.handle() })),
  keyOf(UsePipes({ transform: (value: unknown) => value })),
  keyOf(UseFilters({ catch: () => undefined })),
];

function keyOf(decorator: ClassDecorator): string | symbol {
  class Probe {}
  decorator(Probe);
  const [key] = Reflect.getOwnMetadataKeys(Probe) as (string | symbol)[];
  return key;
}

/**
 * Whether a tool method, or its class (base classes included), declares guards, interceptors, pipes or
 * exception filters. Global enhancers are not looked at here.
 */
export function hasLocalEnhancers(type: object, method: object): boolean {
  return ENHANCER_KEYS.some(
    (key) => isNonEmpty(Reflect.getMetadata(key, type)) || isNonEmpty(Reflect.getMetadata(key, method)),
  );
}

function isNonEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}
