import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  getMetadataStorage,
  IsDateString,
  IsEmail,
  IsISO8601,
  IsNegative,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { constraintKeywords } from '../../../src/definitions/schema/constraint-keywords';
import type { ClassRef } from '../../../src/metadata/options';

function metasOf(type: ClassRef, property: string) {
  return getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .filter((meta) => meta.propertyName === property);
}

describe('constraintKeywords', () => {
  class Dto {
    @Min(1) @Max(10) n!: number;
    @IsPositive() positive!: number;
    @IsNegative() negative!: number;
    @Length(2, 5) code!: string;
    @Length(2) atLeastTwo!: string;
    @MinLength(1) @MaxLength(9) short!: string;
    @Matches(/^[a-z]+$/) lower!: string;
    @Matches(/^[a-z]+$/i) anyCase!: string;
    @Matches('^x', 'i') flaggedString!: string;
    @IsEmail() email!: string;
    @IsUrl() url!: string;
    @IsUUID() id!: string;
    @IsDateString() date!: string;
    @IsISO8601() iso!: string;
    @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique() list!: string[];
    @ArrayNotEmpty() nonEmpty!: string[];
    @IsString({ each: true }) @MaxLength(4, { each: true }) @ArrayMaxSize(2) tags!: string[];
  }

  it.each([
    ['n', { minimum: 1, maximum: 10 }],
    ['positive', { exclusiveMinimum: 0 }],
    ['negative', { exclusiveMaximum: 0 }],
    ['code', { minLength: 2, maxLength: 5 }],
    ['atLeastTwo', { minLength: 2 }],
    ['short', { minLength: 1, maxLength: 9 }],
    ['lower', { pattern: '^[a-z]+$' }],
    ['anyCase', {}],
    ['flaggedString', {}],
    ['email', { format: 'email' }],
    ['url', { format: 'uri' }],
    ['id', { format: 'uuid' }],
    ['date', { format: 'date-time' }],
    ['iso', { format: 'date-time' }],
    ['list', { minItems: 1, maxItems: 3, uniqueItems: true }],
    ['nonEmpty', { minItems: 1 }],
    ['tags', { maxItems: 2 }],
  ])('%s → %j', (property, keywords) => {
    expect(constraintKeywords(metasOf(Dto, property), false)).toEqual(keywords);
  });

  it('reads each-item checks separately from the array itself', () => {
    expect(constraintKeywords(metasOf(Dto, 'tags'), true)).toEqual({ maxLength: 4 });
  });
});
