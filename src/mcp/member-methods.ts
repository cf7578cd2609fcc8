import { classChain, classOf, getMetadataStorage } from '../internal';

/**
 * The `@Resource` or `@Prompt` records of an instance's class and its bases (a subclass's record for a method
 * replaces its base's), each with the method bound to the instance.
 *
 * @internal
 */
export function memberMethodsOf<R extends { readonly methodName: string }>(
  instance: object,
  recordsOf: (storage: ReturnType<typeof getMetadataStorage>, cls: ReturnType<typeof classOf>) => readonly R[],
): { record: R; method: (...args: unknown[]) => unknown }[] {
  const byMethod = new Map<string, R>();
  for (const cls of classChain(classOf(instance)).reverse()) {
    for (const record of recordsOf(getMetadataStorage(), cls)) byMethod.set(record.methodName, record);
  }
  return [...byMethod.values()].map((record) => {
    const method = (instance as Record<string, unknown>)[record.methodName];
    if (typeof method !== 'function') {
      throw new TypeError(`${instance.constructor.name}.${record.methodName} is not a method`);
    }
    return { record, method: (...args: unknown[]) => (method as (...a: unknown[]) => unknown).apply(instance, args) };
  });
}
