import type { ParamOptions } from './options';
import type { ClassRef } from './options';

type MethodParamBase = {
  /** The class that declares the method. */
  readonly target: ClassRef;
  readonly methodName: string;
  /** Zero-based position in the method's parameter list. */
  readonly index: number;
};

/** `@Param(name, options?, ...decorators)`: one named field of the arguments object. */
export type NamedParamMetadata = MethodParamBase & {
  readonly kind: 'param';
  readonly name: string;
  readonly options: ParamOptions;
  /** class-validator / class-transformer decorators to apply to the field. */
  readonly decorators: readonly PropertyDecorator[];
};

/** `@Param(options?)` on a DTO-typed parameter: the whole arguments object. */
export type ArgsParamMetadata = MethodParamBase & {
  readonly kind: 'args';
  readonly options: ParamOptions;
};

/** `@Ctx()`: the parameter receives the `ToolExecuteContext`; the model never sees it. */
export type ContextParamMetadata = MethodParamBase & {
  readonly kind: 'context';
};

/** What a parameter decorator records; `kind` says how `execute` fills the parameter. */
export type ParamMetadata = NamedParamMetadata | ArgsParamMetadata | ContextParamMetadata;

/** `@Param(options?)` on a DTO property. */
export type PropertyMetadata = {
  readonly target: ClassRef;
  readonly propertyName: string;
  readonly options: ParamOptions;
};
