import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ClassType } from '../../metadata/options';
import { getClassModel } from '../model/get-class-model';
import { readFieldFacts } from '../model/read-field-facts';
import { completeFieldValidation } from './complete-field-validation';

const derived = new WeakMap<ClassType, ClassType>();
// Each validation subclass's prototype → the user's class prototype, to hand the method the user's own class.
const userPrototypes = new WeakMap<object, object>();

/**
 * The class agentcall validates an arguments class with: a private subclass carrying the user's checks plus
 * the ones the schema promises and the class lacks (type checks, `@IsOptional`, `@IsIn`, `@ValidateNested` +
 * `@Type`). Built once per class. The user's class is never touched, so a DTO shared with a NestJS
 * `ValidationPipe` validates the same before and after `toolsFrom`.
 *
 * Instances that passed are handed back as the user's class by {@link toUserInstances}.
 *
 * @example plainToInstance(validationClassOf(OrderDto), args) instanceof OrderDto // true
 *
 * @internal
 */
export function validationClassOf<T extends object>(type: ClassType<T>): ClassType<T> {
  const known = derived.get(type);
  if (known) return known as ClassType<T>;
  const ignored = getClassModel(type).ignored;
  // Undecorated own properties are removed as soon as an instance exists, before the model's values are assigned:
  // left out unless sent (then the whitelist refuses them), whatever `useDefineForClassFields` made of them.
  const subclass =
    ignored.length === 0
      ? class extends (type as ClassType) {}
      : class extends (type as ClassType) {
          constructor(...args: never[]) {
            super(...args);
            for (const name of ignored) Reflect.deleteProperty(this, name);
          }
        };
  // Error messages and `constructor.name` read as the user's class.
  Object.defineProperty(subclass, 'name', { value: type.name });
  derived.set(type, subclass);
  userPrototypes.set(subclass.prototype as object, type.prototype as object);

  const fields = new Map(getClassModel(type).fields.map((field) => [field.name, field]));
  const storage = getMetadataStorage();
  for (const facts of readFieldFacts(type)) {
    // class-validator lets a subclass's check of one kind hide every inherited check of that kind on the same
    // property, so the subclass restates all of the user's checks before adding its own.
    for (const meta of facts.metas) storage.addValidationMetadata(restate(meta, subclass));
    const field = fields.get(facts.propertyName);
    if (field) completeFieldValidation(facts, field, subclass, validationClassOf);
  }
  return subclass as ClassType<T>;
}

function restate(meta: ValidationMetadata, target: ClassType): ValidationMetadata {
  return Object.assign(Object.create(Object.getPrototypeOf(meta) as object) as ValidationMetadata, meta, { target });
}

/**
 * Give a validated instance, and every validation-class instance nested in it, the prototype of the user's own
 * class, so the method gets an `OrderDto` (`order.constructor === OrderDto`) and ORMs and mappers that look a
 * class up by its constructor see the user's class. The constructor that ran is the user's (the subclass adds
 * at most the removal of undecorated properties); only the validation subclass's prototype, which adds nothing but metadata, is left out. In place.
 *
 * @internal
 */
export function toUserInstances<T>(value: T): T {
  rehome(value);
  return value;
}

function rehome(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) rehome(item);
    return;
  }
  const user = userPrototypes.get(Object.getPrototypeOf(value) as object);
  if (user === undefined) return;
  Object.setPrototypeOf(value, user);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (typeof field === 'object' && field !== null) rehome(field);
  }
}
