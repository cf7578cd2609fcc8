/**
 * Freeze an object graph, so a schema shared by every instance of a class cannot be edited through one of them.
 *
 * @internal
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
