import type { ClassType } from '../../metadata/options';

/**
 * The own properties of `new type()` that carry neither `@Param` nor a class-validator check (`declared`
 * lists those that do). A property becomes an own property through an initialiser, or through any class field
 * under `useDefineForClassFields` (the default for ES2022+ targets); a declared-only field compiled without it
 * leaves no trace at run time. So that the same class behaves the same whatever that flag, such a property is
 * ignored on both sides: validation removes it from the instance it builds (class-validator's whitelist would
 * refuse every call over it), and refuses it when the model sends it. A constructor that throws without arguments
 * hides its properties: class-transformer would fail the same way on every call.
 *
 * @example undecoratedFields(PostDto, new Set(['title'])) // ['body']
 *
 * @internal
 */
export function undecoratedFields(type: ClassType, declared: ReadonlySet<string>): string[] {
  let instance: object;
  try {
    instance = new type();
  } catch {
    return [];
  }
  return Object.keys(instance).filter((name) => !declared.has(name));
}

/** What `definitionWarnings` says of such a property. */
export function undecoratedWarning(className: string, name: string): string {
  return (
    `${className}.${name}: has no @Param or class-validator decorator, so it is left out of the schema, refused ` +
    `if the model sends it, and absent from the arguments the tool gets (an initialiser's value too); describe ` +
    `it with @Param() or a class-validator check, or remove it`
  );
}
