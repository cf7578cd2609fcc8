import { ValidationError, validateSync, type ValidatorOptions } from 'class-validator';
import type { ClassType } from '../../metadata/options';
import { getClassModel } from '../model/get-class-model';
import { normalizeArgs } from './normalize-args';
import { plainChecksOf } from './plain-checks';
import { toValidationInstance } from './to-validation-instance';
import { toUserInstances } from './validation-class';

// Unknown properties are reported, not silently dropped: the model learns its mistake.
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

/**
 * What validating an arguments object gives: the validated instance, or class-validator's errors.
 *
 * @internal
 */
export type ArgsCheck<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: ValidationError[] };

/**
 * Validate a parsed arguments object against its class, the one path `parseParams` and `standardSchemaOf`
 * share: optional nulls dropped and defaults filled (in place: pass a copy you own), `plainToInstance` into
 * the class's validation class (see {@link toValidationInstance}), `validateSync` with unknown properties refused
 * (passing values are checked by {@link plainChecksOf} where it covers the class, with the same verdict). A
 * passing instance is an instance of the user's own class, nested DTOs included (see {@link toUserInstances}).
 *
 * @internal
 */
export function validateArgs<T extends object>(argsClass: ClassType<T>, args: Record<string, unknown>): ArgsCheck<T> {
  normalizeArgs(args, argsClass);
  const value = toValidationInstance(argsClass, args);
  // class-validator refuses a class with no checks at all as an unknown value.
  if (getClassModel(argsClass).fields.length === 0) return outcome(value, unknownKeys(value, args));
  // Most calls pass: checked without validateSync's allocations, which are only needed for the messages.
  if (plainChecksOf(value.constructor as ClassType)?.(value)) return { ok: true, value: toUserInstances(value) };
  return outcome(value, validateSync(value, VALIDATOR_OPTIONS));
}

// A passing instance is handed on as the user's class; a failing one stays what class-validator checked.
function outcome<T>(value: T, errors: ValidationError[]): ArgsCheck<T> {
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: toUserInstances(value) };
}

function unknownKeys(target: object, args: Record<string, unknown>): ValidationError[] {
  return Object.keys(args).map((property) =>
    Object.assign(new ValidationError(), {
      target,
      property,
      value: args[property],
      constraints: { whitelistValidation: `property ${property} should not exist` },
      children: [],
    }),
  );
}
