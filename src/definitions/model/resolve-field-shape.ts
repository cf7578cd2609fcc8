import { IS_ARRAY, IS_BOOLEAN, IS_ENUM, IS_IN, IS_INT, IS_NUMBER, IS_OBJECT } from 'class-validator';
import type { TypeSpec } from '../../metadata/options';
import { constraintKeywords } from '../schema/constraint-keywords';
import type { FieldShape } from './field-model';
import { hasCheck, STRING_CHECKS } from './has-check';
import { isDtoClass, typeName } from './is-dto-class';
import type { FieldFacts } from './read-field-facts';

/**
 * Decide what a field holds. Precedence: `type: () => X` (the items' type on an array-typed property), then allowed values (`enum`, `@IsIn`, `@IsEnum`),
 * then a nested class (`@Type`, or a class-typed property), then class-validator type checks, then the
 * reflected TypeScript type. Returns a problem message when none of them tells.
 *
 * @internal
 */
export function resolveFieldShape(facts: FieldFacts): FieldShape | string {
  const explicit = facts.options?.type?.();
  // On an array-typed property, `type: () => X` names the items, as class-transformer's `@Type(() => X)` does.
  if (explicit !== undefined) {
    const spec = facts.designType === Array && !Array.isArray(explicit) ? ([explicit] as const) : explicit;
    return shapeFromSpec(spec, facts, false);
  }
  const isArray = facts.designType === Array || hasCheck(facts.metas, IS_ARRAY, false);
  if (!isArray) return resolveLevel(facts, false);
  const items = resolveLevel(facts, true);
  return typeof items === 'string' ? items : { kind: 'array', items, keywords: constraintKeywords(facts.metas, false) };
}

function shapeFromSpec(spec: TypeSpec, facts: FieldFacts, each: boolean): FieldShape | string {
  const keywords = constraintKeywords(facts.metas, each);
  if (Array.isArray(spec)) {
    const items = shapeFromSpec((spec as readonly [TypeSpec])[0], facts, true);
    return typeof items === 'string' ? items : { kind: 'array', items, keywords };
  }
  const values = allowedValues(facts, each);
  if (values) return { kind: 'enum', values, keywords };
  if (spec === String) return { kind: 'string', keywords };
  if (spec === Number) return { kind: hasCheck(facts.metas, IS_INT, each) ? 'integer' : 'number', keywords };
  if (spec === Boolean) return { kind: 'boolean', keywords };
  if (isDtoClass(spec)) return { kind: 'class', type: spec, keywords: {} };
  return `type: () => ${typeName(spec)} is not supported; use String, Number, Boolean, a DTO class or [X]`;
}

function resolveLevel(facts: FieldFacts, each: boolean): FieldShape | string {
  const { metas, designType } = facts;
  const keywords = constraintKeywords(metas, each);
  const values = allowedValues(facts, each);
  if (values) return { kind: 'enum', values, keywords };
  const nested = isDtoClass(facts.transformType)
    ? facts.transformType
    : !each && isDtoClass(designType)
      ? designType
      : undefined;
  if (nested) return { kind: 'class', type: nested, keywords: {} };
  if (hasCheck(metas, IS_INT, each)) return { kind: 'integer', keywords };
  if (hasCheck(metas, IS_NUMBER, each) || (!each && designType === Number)) return { kind: 'number', keywords };
  if (hasCheck(metas, IS_BOOLEAN, each) || (!each && designType === Boolean)) return { kind: 'boolean', keywords };
  if (STRING_CHECKS.some((name) => hasCheck(metas, name, each)) || (!each && designType === String)) {
    return { kind: 'string', keywords };
  }
  if (hasCheck(metas, IS_OBJECT, each)) return { kind: 'map', keywords };
  return unresolved(designType, each);
}

function allowedValues({ options, metas }: FieldFacts, each: boolean): (string | number)[] | undefined {
  const given = options?.enum;
  if (given !== undefined) return isList(given) ? [...given] : enumMembers(given);
  const isIn = metas.find((m) => m.name === IS_IN && Boolean(m.each) === each);
  if (isIn) return (isIn.constraints[0] as unknown[]).filter(isEnumValue);
  const isEnum = metas.find((m) => m.name === IS_ENUM && Boolean(m.each) === each);
  return isEnum ? (isEnum.constraints[1] as unknown[]).filter(isEnumValue) : undefined;
}

// Numeric TypeScript enums carry reverse-mapping keys ("0": "Red"); class-validator skips them the same way.
function enumMembers(members: Readonly<Record<string, string | number>>): (string | number)[] {
  return Object.entries(members)
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
}

function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

function isEnumValue(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function unresolved(designType: unknown, each: boolean): string {
  if (each)
    return 'the array item type is unknown; give type: () => [X] (or @IsString({ each: true }), @Type(() => X))';
  if (designType === undefined) {
    return 'no TypeScript type was emitted for it (compile with "emitDecoratorMetadata"; esbuild and tsx drop it); give type: () => X';
  }
  if (designType === Object) {
    return 'its type reflects as Object (a union, an interface or a type literal); give type: () => X or use a DTO class';
  }
  return `type ${typeName(designType)} cannot be sent as JSON arguments; use string, number, boolean, an enum, a DTO class or an array`;
}
