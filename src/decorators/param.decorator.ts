// Loaded before any decorated class body runs, so TypeScript's emitted design:* metadata has somewhere to go.
import 'reflect-metadata';
import { Allow } from 'class-validator';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ParamOptions } from '../metadata/options';
import { classOf } from '../metadata/class-chain';

// Listed first: TypeScript infers `type: () => [X]` as a tuple only if the first overload it tries takes options.
/**
 * Without a name, on a parameter typed by a DTO class: that class is the whole arguments object.
 * On a DTO property: describe the field (description, optional, enum, examples, `type: () => X`); the
 * property's TypeScript type is enough for its JSON type and its check, and class-validator decorators on
 * it add constraints.
 *
 * @example
 * class Passenger {
 *   @Param({ description: 'Full name' }) name!: string;
 * }
 * class FlightTools {
 *   @Tool() book(@Param({ description: 'Who flies' }) passenger: Passenger) { ... }
 * }
 */
export function Param(options?: ParamOptions): ParameterDecorator & PropertyDecorator;
/**
 * Declare one named field of a tool's arguments, on a `@Tool` method parameter.
 *
 * The JSON type comes from the parameter's TypeScript type (`design:paramtypes`), or from `type` when
 * reflection cannot tell (arrays, unions). class-validator / class-transformer decorators given after the
 * options apply to the field exactly as they would on a DTO property.
 *
 * @example
 * @Tool({ description: 'Weather forecast' })
 * forecast(
 *   @Param('city', { description: 'City name' }) city: string,
 *   @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number,
 * ) { ... }
 */
export function Param(name: string, options?: ParamOptions, ...decorators: PropertyDecorator[]): ParameterDecorator;
export function Param(
  nameOrOptions?: string | ParamOptions,
  maybeOptions?: ParamOptions,
  ...decorators: PropertyDecorator[]
): ParameterDecorator & PropertyDecorator {
  const name = typeof nameOrOptions === 'string' ? nameOrOptions : undefined;
  const options = (typeof nameOrOptions === 'string' ? maybeOptions : nameOrOptions) ?? {};
  return (prototype: object, key: string | symbol | undefined, index?: number) => {
    const storage = getMetadataStorage();
    const target = classOf(prototype);
    // Constructor parameters belong to dependency injection, never to a tool.
    if (key === undefined) return;
    const memberName = String(key);
    if (index === undefined) {
      storage.addProperty({ target, propertyName: memberName, options });
      // A class-validator record of its own keeps the field's declaration position among the fields that
      // carry only class-validator decorators, and marks it as an allowed (whitelisted) property.
      Allow()(prototype, memberName);
    } else if (name === undefined) {
      storage.addParam({ kind: 'args', target, methodName: memberName, index, options });
    } else {
      storage.addParam({ kind: 'param', target, methodName: memberName, index, name, options, decorators });
    }
  };
}
