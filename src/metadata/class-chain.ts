import type { ClassRef } from './options';
/**
 * A class followed by each class it extends, most derived first (`Object` and `Function.prototype` left out).
 *
 * @example classChain(AdminTools) // [AdminTools, BaseTools]
 *
 * @internal
 */
export function classChain(type: ClassRef): ClassRef[] {
  const chain: ClassRef[] = [];
  for (let current = type; typeof current === 'function' && current !== Function.prototype;) {
    if (current === Object) break;
    chain.push(current);
    current = Object.getPrototypeOf(current) as ClassRef;
  }
  return chain;
}

/** The class of an instance or prototype; TypeScript types `constructor` as a bare `Function`. */
export function classOf(value: object): ClassRef {
  return value.constructor as ClassRef;
}
