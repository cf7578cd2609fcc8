import { FORBIDDEN_KEYS } from '../constants';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../metadata/options';
import type { NamedParamMetadata, ParamMetadata } from '../metadata/param-metadata';
import { reflectParamTypes } from '../metadata/reflect-type';
import { isDtoClass, typeName } from './model/is-dto-class';
import { synthesizeArgsClass } from './model/synthesize-args-class';
import type { ClassRef } from '../metadata/options';

/**
 * How `execute` fills one method parameter.
 *
 * @internal
 */
export type ArgumentSlot =
  { readonly kind: 'param'; readonly name: string } | { readonly kind: 'args' } | { readonly kind: 'context' };

/**
 * A method parameter problem, before it is located in a class.
 *
 * @internal
 */
export type PlanProblem = { readonly parameterIndex?: number; readonly message: string };

/**
 * How a tool method's parameters map onto one arguments class.
 *
 * @internal
 */
export type ArgumentPlan = {
  /** The class the arguments are validated against: the DTO, or one synthesized from named parameters. */
  readonly argsClass: ClassType;
  /** Whether `argsClass` was synthesized (its fields are the named parameters). */
  readonly synthesized: boolean;
  /** One slot per method parameter, by index. */
  readonly slots: readonly ArgumentSlot[];
  /** The index of each named parameter, and of the DTO parameter under the key `''`. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** The DTO parameter's `@Param` description, used as the schema's description. */
  readonly description?: string;
  readonly problems: readonly PlanProblem[];
};

/**
 * Read a method's parameter records and design types, and decide its arguments class.
 *
 * @example planArguments(WeatherTools, 'getWeather').slots // [{ kind: 'param', name: 'city' }, { kind: 'context' }]
 *
 * @internal
 */
export function planArguments(owner: ClassRef, methodName: string): ArgumentPlan {
  const records = getMetadataStorage().getParams(owner, methodName);
  const paramTypes = reflectParamTypes(owner, methodName);
  const declared: unknown = Reflect.get(owner.prototype as object, methodName);
  // design:paramtypes counts every parameter; `length` stops at the first one with a default value.
  const arity = Math.max(
    paramTypes?.length ?? 0,
    typeof declared === 'function' ? declared.length : 0,
    ...records.map((record) => record.index + 1),
  );
  const problems: PlanProblem[] = [];
  const slots: ArgumentSlot[] = [];
  for (let index = 0; index < arity; index++) {
    const at = records.filter((record) => record.index === index);
    if (at.length === 0) problems.push({ parameterIndex: index, message: UNDECORATED });
    if (at.length > 1) problems.push({ parameterIndex: index, message: 'has more than one @Param / @Ctx decorator' });
    slots.push(at.length === 0 ? { kind: 'context' } : toSlot(at[0]));
  }
  const named = records.filter((record): record is NamedParamMetadata => record.kind === 'param');
  const badNames = namedProblems(named);
  problems.push(...badNames);
  // Misnamed parameters stay out of the synthesized class: a property called __proto__ would corrupt it.
  const usable = named.filter((param) => !badNames.some((problem) => problem.parameterIndex === param.index));
  const indexOf = new Map(named.map((param) => [param.name, param.index]));
  const whole = records.filter((record) => record.kind === 'args');
  if (whole.length === 0) {
    const argsClass = synthesizeArgsClass(owner, methodName, usable, paramTypes);
    return { argsClass, synthesized: true, slots, indexOf, problems };
  }
  const [dto, ...extra] = whole;
  indexOf.set('', dto.index);
  extra.forEach((param) => problems.push({ parameterIndex: param.index, message: SECOND_WHOLE }));
  if (named.length > 0) problems.push({ parameterIndex: dto.index, message: WHOLE_AND_NAMED });
  const type = dto.options.type?.() ?? paramTypes?.[dto.index];
  if (isDtoClass(type)) {
    return { argsClass: type, synthesized: false, slots, indexOf, description: dto.options.description, problems };
  }
  problems.push({ parameterIndex: dto.index, message: notADto(type) });
  return {
    argsClass: synthesizeArgsClass(owner, methodName, [], paramTypes),
    synthesized: false,
    slots,
    indexOf,
    problems,
  };
}

const UNDECORATED = 'has no @Param or @Ctx decorator; every parameter of a @Tool method needs one';
const SECOND_WHOLE = 'a second @Param() without a name; only one parameter can take the whole arguments object';
const WHOLE_AND_NAMED =
  '@Param() without a name takes the whole arguments object, so the method cannot also have named @Param(name) parameters';

function notADto(type: unknown): string {
  const needs = '@Param() without a name needs a parameter typed by a DTO class';
  // The same flag and tools the inline-parameter message names: metadata is missing, not the parameter's type.
  if (type === undefined) {
    return `${needs}, but no TypeScript type was emitted for it (compile with "emitDecoratorMetadata"; esbuild and tsx drop it); give @Param({ type: () => YourDto }) or a name (@Param('x'))`;
  }
  return `${needs}, but its type is ${typeName(type)}; give the parameter a name (@Param('x')) or a class type`;
}

function toSlot(record: ParamMetadata): ArgumentSlot {
  return record.kind === 'param' ? { kind: 'param', name: record.name } : { kind: record.kind };
}

function namedProblems(named: readonly NamedParamMetadata[]): PlanProblem[] {
  const problems: PlanProblem[] = [];
  named.forEach((param, position) => {
    if (param.name === '' || FORBIDDEN_KEYS.has(param.name)) {
      problems.push({ parameterIndex: param.index, message: `"${param.name}" cannot be a parameter name` });
    } else if (param.name in Object.prototype) {
      // The arguments object would answer with the inherited member (a function) and every call would fail.
      problems.push({
        parameterIndex: param.index,
        message: `"${param.name}" cannot be a parameter name: it shadows Object.prototype.${param.name}`,
      });
    } else if (named.findIndex((other) => other.name === param.name) < position) {
      problems.push({ parameterIndex: param.index, message: `duplicate parameter name "${param.name}"` });
    }
  });
  return problems;
}
