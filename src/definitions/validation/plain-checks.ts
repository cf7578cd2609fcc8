import { ValidationTypes, getMetadataStorage, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ClassType } from '../../metadata/options';

/**
 * Whether an instance passes every check `validateSync` would run on it.
 *
 * @internal
 */
export type PlainChecks = (instance: object) => boolean;

/**
 * The metadata a check was built from: class-validator's lists for the class and its ancestors with their
 * lengths, and how many classes had checks, so that checks added later anywhere rebuild it.
 */
type BuiltChecks = {
  readonly check: PlainChecks | undefined;
  readonly lists: readonly (readonly [readonly unknown[], number])[];
  readonly classes: number;
};

const built = new WeakMap<ClassType, BuiltChecks>();

/** class-validator keeps its metadata by target; the map is private in its typings but is the one it reads. */
function metadataByTarget(): Map<unknown, ValidationMetadata[]> {
  return (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> })
    .validationMetadatas;
}

/**
 * A check that answers `true` exactly when `validateSync(instance, { whitelist: true, forbidNonWhitelisted: true,
 * forbidUnknownValues: true })` would return no errors, for classes whose checks are custom constraints
 * (`@IsString`, `@Min`, user `@Validate` classes…), `@IsDefined`, `@ValidateIf` / `@IsOptional` and `@Allow`.
 * It runs class-validator's own constraint functions in class-validator's order, but without building a
 * `ValidationExecutor`, its error objects, and the search through every class's metadata that `validateSync`
 * repeats on each call. A `false` says only that something failed: the caller asks `validateSync` for the
 * messages, so a failing call's constraints run twice. `undefined` for a class the shortcut does not cover
 * (nested or promise validation, or no checks at all).
 *
 * @internal
 */
export function plainChecksOf(type: ClassType): PlainChecks | undefined {
  const known = built.get(type);
  if (
    known &&
    known.classes === metadataByTarget().size &&
    known.lists.every(([list, length]) => list.length === length)
  ) {
    return known.check;
  }
  const fresh = buildChecks(type);
  built.set(type, fresh);
  return fresh.check;
}

function buildChecks(type: ClassType): BuiltChecks {
  const storage = getMetadataStorage();
  const byTarget = metadataByTarget();
  const lists: (readonly [readonly unknown[], number])[] = [];
  for (const [target, list] of byTarget) {
    if (target === type || (typeof target === 'function' && type.prototype instanceof target)) {
      lists.push([list, list.length]);
    }
  }
  const classes = byTarget.size;
  const metas = storage.getTargetValidationMetadatas(type, '', false, false, undefined);
  const covered = metas.every(
    (meta) =>
      meta.type === ValidationTypes.CUSTOM_VALIDATION ||
      meta.type === ValidationTypes.IS_DEFINED ||
      meta.type === ValidationTypes.CONDITIONAL_VALIDATION ||
      meta.type === ValidationTypes.WHITELIST,
  );
  if (!covered || metas.length === 0) return { check: undefined, lists, classes };
  const grouped = storage.groupByPropertyName(metas);
  const properties = Object.keys(grouped).map((name) => {
    const list = grouped[name];
    return {
      name,
      conditions: list.filter((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION),
      // As the executor runs them: the `@IsDefined` checks, then the others.
      constraints: [
        ...list.filter((meta) => meta.type === ValidationTypes.IS_DEFINED),
        ...list.filter((meta) => meta.type === ValidationTypes.CUSTOM_VALIDATION),
      ],
    };
  });
  const allowed = new Set(Object.keys(grouped));
  const check: PlainChecks = (instance) => {
    for (const key of Object.keys(instance)) if (!allowed.has(key)) return false;
    const object = instance as Record<string, unknown>;
    for (const { name, conditions, constraints } of properties) {
      const value = object[name];
      let validate = true;
      // The executor calls every condition, not only up to the first false one.
      for (const meta of conditions) {
        if (!(meta.constraints[0] as (o: object, v: unknown) => boolean)(object, value)) validate = false;
      }
      if (validate && !constraints.every((meta) => passes(object, value, meta))) return false;
    }
    return true;
  };
  return { check, lists, classes };
}

function passes(object: object, value: unknown, meta: ValidationMetadata): boolean {
  if (meta.validateIf && !meta.validateIf(object, value)) return true;
  for (const constraint of getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls)) {
    // validateSync skips async constraints, and a sync one that returns a promise reports nothing.
    if (constraint.async) continue;
    const args: ValidationArguments = {
      targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
      property: meta.propertyName,
      object,
      value,
      constraints: meta.constraints,
    };
    const validator = constraint.instance;
    if (!meta.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      if (!validator.validate(value, args)) return false;
      continue;
    }
    const items = value instanceof Map ? [...value.values()] : [...(value as Iterable<unknown>)];
    const results = items.map((item) => validator.validate(item, args));
    if (!results.some(isPromise) && !results.every(Boolean)) return false;
  }
  return true;
}

function isPromise(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
