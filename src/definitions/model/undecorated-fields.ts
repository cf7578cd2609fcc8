import type { ClassType } from '../../metadata/options';
import type { FieldProblem } from './field-model';

/**
 * The own properties of `new type()` that carry neither `@Param` nor a class-validator check (`declared`
 * lists those that do). class-validator's whitelist refuses every own property of the instance it has no record
 * of, whether the model sent it or not, so such a property would fail every call while the schema leaves it out.
 * A property becomes an own property through an initialiser, or through any class field under
 * `useDefineForClassFields` (the default for ES2022+ targets); a declared-only field compiled without it leaves
 * no trace at run time and is harmless on both sides. A constructor that throws without arguments hides its
 * properties: class-transformer would fail the same way on every call.
 *
 * @example undecoratedFields(PostDto, new Set(['title'])) // [{ propertyName: 'body', message: 'has no @Param …' }]
 *
 * @internal
 */
export function undecoratedFields(type: ClassType, declared: ReadonlySet<string>): FieldProblem[] {
  let instance: object;
  try {
    instance = new type();
  } catch {
    return [];
  }
  return Object.keys(instance)
    .filter((name) => !declared.has(name))
    .map((propertyName) => ({ propertyName, message: undecoratedMessage(propertyName) }));
}

function undecoratedMessage(name: string): string {
  return (
    `has no @Param or class-validator decorator, yet every instance has it (an initialiser, or a class field under ` +
    `"useDefineForClassFields"), so every call would be refused with "property ${name} should not exist"; ` +
    `describe it with @Param() or a class-validator check, or remove it`
  );
}
