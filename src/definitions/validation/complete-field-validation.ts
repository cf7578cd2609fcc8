import { Type } from 'class-transformer';
import {
  IS_ARRAY,
  IS_BOOLEAN,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_NUMBER,
  IS_OBJECT,
  IS_OPTIONAL,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  ValidateBy,
  ValidateNested,
  ValidationTypes,
  buildMessage,
} from 'class-validator';
import type { FieldModel, FieldShape } from '../model/field-model';
import { hasCheck, STRING_CHECKS } from '../model/has-check';
import type { FieldFacts } from '../model/read-field-facts';
import type { ClassType } from '../../metadata/options';

/**
 * Add to `target` the class-validator / class-transformer checks a field's schema promises but its class
 * lacks (the type check, `@IsOptional`, `@IsIn`, `@ValidateNested` + `@Type`), so the published schema and the
 * validation never disagree. Checks already present are left alone; nothing is ever loosened. Nested classes
 * are validated as `nestedClassOf(type)`.
 *
 * @internal
 */
export function completeFieldValidation(
  facts: FieldFacts,
  field: FieldModel,
  target: ClassType,
  nestedClassOf: (type: ClassType) => ClassType,
): void {
  const decorators: PropertyDecorator[] = [];
  if (field.optional && !facts.metas.some((meta) => meta.name === IS_OPTIONAL)) decorators.push(IsOptional());
  if (field.shape.kind === 'array') {
    if (!hasCheck(facts.metas, IS_ARRAY, false)) decorators.push(IsArray());
    decorators.push(...levelChecks(facts, field.shape.items, true, nestedClassOf));
  } else {
    decorators.push(...levelChecks(facts, field.shape, false, nestedClassOf));
  }
  for (const decorate of decorators) decorate(target.prototype as object, facts.propertyName);
}

function levelChecks(
  facts: FieldFacts,
  shape: FieldShape,
  each: boolean,
  nestedClassOf: (type: ClassType) => ClassType,
): PropertyDecorator[] {
  const has = (name: string): boolean => hasCheck(facts.metas, name, each);
  const options = { each };
  switch (shape.kind) {
    case 'string':
      return STRING_CHECKS.some(has) ? [] : [IsString(options)];
    case 'number':
      return has(IS_NUMBER) || has(IS_INT) ? [] : [IsNumber({}, options)];
    case 'integer':
      return has(IS_INT) ? [] : [IsInt(options)];
    case 'boolean':
      return has(IS_BOOLEAN) ? [] : [IsBoolean(options)];
    case 'enum':
      return has(IS_IN) || has(IS_ENUM) ? [] : [IsIn([...shape.values], options)];
    case 'map':
      return has(IS_OBJECT) ? [] : [IsObject(options)];
    case 'class':
      return nestedChecks(facts, shape.type, each, nestedClassOf);
    case 'array':
      // Arrays of arrays: the inner level's checks cannot be expressed with class-validator's `each`.
      return [];
  }
}

function nestedChecks(
  facts: FieldFacts,
  type: ClassType,
  each: boolean,
  nestedClassOf: (type: ClassType) => ClassType,
): PropertyDecorator[] {
  const checks: PropertyDecorator[] = [];
  if (!facts.metas.some((meta) => meta.type === ValidationTypes.NESTED_VALIDATION))
    checks.push(ValidateNested({ each }));
  // Nested values become instances of the nested class's own validation class (without @Type, plainToInstance
  // would leave a plain object, which class-validator refuses as an unknown value). A user's @Type that names
  // another class (a discriminator, a subclass) is kept.
  if (facts.transformType === undefined || facts.transformType === type) checks.push(Type(() => nestedClassOf(type)));
  // ValidateNested alone accepts an array where one object is expected, and an array of arrays where an array of
  // objects is expected (other non-objects it reports itself).
  if (!hasCheck(facts.metas, IS_OBJECT, each)) checks.push(each ? ItemIsNotArray() : IsObject());
  return checks;
}

/** Each item of the array must not itself be an array (where the schema promises objects). */
function ItemIsNotArray(): PropertyDecorator {
  const validationOptions = { each: true };
  return ValidateBy(
    {
      name: 'itemIsNotArray',
      validator: {
        validate: (value) => !Array.isArray(value),
        defaultMessage: buildMessage(
          (eachPrefix) => `${eachPrefix}$property must be an object, not an array`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}
