import { Allow } from 'class-validator';
import { getMetadataStorage } from '../../metadata/metadata-storage';
import type { ClassType } from '../../metadata/options';
import type { NamedParamMetadata } from '../../metadata/param-metadata';
import { defineDesignType } from '../../metadata/reflect-type';
import type { ClassRef } from '../../metadata/options';

/**
 * Turn a method's named `@Param`s into a class with one property per parameter, as if the user had
 * written a DTO: the reflected parameter type becomes the property's `design:type`, the parameter's options
 * are recorded for the property, and its extra decorators are applied to it. Inline parameters and DTOs then
 * share one path for schema, transformation and validation. The class is agentcall's own.
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
  const storage = getMetadataStorage();
  for (const param of params) {
    defineDesignType(ArgsClass, param.name, paramTypes?.[param.index]);
    storage.addProperty({ target: ArgsClass, propertyName: param.name, options: param.options });
    // As `@Param` on a DTO property: allowed even when no check names it. Stacked decorators run bottom-up;
    // applying the list in reverse keeps the order a DTO would have.
    for (const decorate of [...param.decorators, Allow()].reverse()) decorate(ArgsClass.prototype, param.name);
  }
  return ArgsClass;
}
