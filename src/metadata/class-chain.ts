/**
 * A class followed by each class it extends, most derived first (`Object` and `Function.prototype` left out).
 *
 * @example classChain(AdminTools) // [AdminTools, BaseTools]
 *
 * @internal
 */
export function classChain(type: Function): Function[] {
  const chain: Function[] = [];
  for (let current = type; typeof current === 'function' && current !== Function.prototype;) {
    if (current === Object) break;
    chain.push(current);
    current = Object.getPrototypeOf(current);
  }
  return chain;
}
