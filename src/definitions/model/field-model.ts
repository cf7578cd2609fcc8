import type { ClassType } from '../../metadata/options';
import type { JsonSchema } from '../schema/json-schema';

/**
 * What one field of an arguments class holds, resolved once from reflection, `@Param` options and
 * class-validator / class-transformer metadata. `keywords` are the constraint keywords at that level.
 *
 * @internal
 */
export type FieldShape =
  | { readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'map'; readonly keywords: JsonSchema }
  | { readonly kind: 'enum'; readonly values: readonly (string | number)[]; readonly keywords: JsonSchema }
  | { readonly kind: 'class'; readonly type: ClassType; readonly keywords: JsonSchema }
  | { readonly kind: 'array'; readonly items: FieldShape; readonly keywords: JsonSchema };

/**
 * One field of an arguments class, as the schema builder and the null stripper see it.
 *
 * @internal
 */
export type FieldModel = {
  readonly name: string;
  readonly optional: boolean;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  /** Filled in when the field is absent; `undefined` when the field has none. */
  readonly default?: unknown;
  readonly shape: FieldShape;
};

/**
 * A field that could not be resolved, and why.
 *
 * @internal
 */
export type FieldProblem = { readonly propertyName: string; readonly message: string };

/**
 * Every field of an arguments class (a DTO or a synthesized one), with the problems found on the way.
 *
 * @internal
 */
export type ClassModel = {
  readonly type: ClassType;
  readonly fields: readonly FieldModel[];
  readonly problems: readonly FieldProblem[];
  /**
   * Own properties of `new type()` with no decorator at all: left out of the schema, refused if the model sends
   * them, removed from the instance validation builds, and reported by `definitionWarnings`.
   */
  readonly ignored: readonly string[];
};
