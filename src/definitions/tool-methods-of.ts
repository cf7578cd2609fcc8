import type { ClassType } from '../metadata/options';
import { getClassTools } from './get-class-tools';

/**
 * How a framework fills one parameter of a `@Tool` method: a named argument (`@Param('city')`), the whole
 * validated arguments object (`@Param()` on a DTO), or the call's `ToolExecuteContext` (`@Ctx()`).
 */
export type ToolMethodParameter =
  { readonly kind: 'param'; readonly name: string } | { readonly kind: 'args' } | { readonly kind: 'context' };

/** One `@Tool` method of a class, as a framework integration calls it itself. */
export type ToolMethod = {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** The method's property name on the class. */
  readonly methodName: string;
  /** One entry per positional parameter of the method. */
  readonly parameters: readonly ToolMethodParameter[];
};

const cache = new WeakMap<ClassType, readonly ToolMethod[]>();

/**
 * The `@Tool` methods of a class (its own and inherited), in the order `toolsFrom` returns their definitions for an
 * instance of it; empty when the class has none. For integrations that invoke the method through their own
 * pipeline (the NestJS adapter runs it through guards, interceptors and pipes) and need to know which method a
 * definition stands for and how its parameters are filled. Never throws: `toolsFrom` reports a class's problems.
 *
 * @example
 * toolMethodsOf(WeatherTools) // [{ name: 'get_weather', methodName: 'getWeather', parameters: [{ kind: 'param', name: 'city' }] }]
 */
export function toolMethodsOf(type: ClassType): readonly ToolMethod[] {
  let methods = cache.get(type);
  if (!methods) {
    methods = Object.freeze(
      getClassTools(type).tools.map((tool) => ({
        name: tool.schemaFor('openai').schema.function.name,
        methodName: tool.methodName,
        parameters: tool.slots,
      })),
    );
    cache.set(type, methods);
  }
  return methods;
}
