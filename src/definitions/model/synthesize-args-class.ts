import { Param } from '../../decorators/param.decorator';
import type { ClassType } from '../../metadata/options';
import type { NamedParamMetadata } from '../../metadata/param-metadata';
import { defineDesignType } from '../../metadata/reflect-type';
import type { ClassRef } from '../../metadata/options';

/**
 * Turn a method's named `@Param`s into a class with one property per parameter, as if the user had
 * written a DTO: the reflected parameter type becomes the property's `design:type`, and `@Param(options)`
 * followed by the extra decorators is applied to the property. Inline parameters and
 * DTOs then share one path for schema, transformation and validation.
 *
 * @internal
 */
export function synthesizeArgsClass(
  owner: ClassRef,
  methodName: string,
  params: readonly NamedParamMetadata[],
  paramTypes: readonly unknown[] | undefined,
): ClassType {
  const ArgsClass = class {};
  Object.defineProperty(ArgsClass, 'name', { value: `${owner.name}.${methodName}Args` });
  for (const param of params) {
    defineDesignType(ArgsClass, param.name, paramTypes?.[param.index]);
    // Stacked decorators run bottom-up; applying the list in reverse keeps the order a DTO would have.
    for (const decorate of [...param.decorators, Param(param.options)].reverse())
      decorate(ArgsClass.prototype, param.name);
  }
  return ArgsClass;
}
