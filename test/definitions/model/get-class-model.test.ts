import 'reflect-metadata';
import { Exclude, Type } from 'class-transformer';
import {
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import { getClassModel } from '../../../src/definitions/model/get-class-model';

function shapes(type: new () => object) {
  return Object.fromEntries(getClassModel(type).fields.map((field) => [field.name, field.shape]));
}

describe('getClassModel', () => {
  it('orders fields base first, each class in declaration order, @Param or not', () => {
    class Base {
      @IsInt() id!: number;
      @Param() kind!: string;
    }
    class Derived extends Base {
      @Param() name!: string;
      @IsEmail() email!: string;
    }
    expect(getClassModel(Derived).fields.map((field) => field.name)).toEqual(['id', 'kind', 'name', 'email']);
  });

  it('reads optional from @Param or @IsOptional, and leaves @Exclude()d input fields out', () => {
    class Dto {
      @Param({ optional: true }) a?: string;
      @IsOptional() @IsString() b?: string;
      @Param() c!: string;
      @Exclude() @IsString() internal!: string;
      @Exclude({ toPlainOnly: true }) @IsString() writeOnly!: string;
    }
    expect(getClassModel(Dto).fields.map((field) => [field.name, field.optional])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
      ['writeOnly', false],
    ]);
  });

  it('resolves types: explicit type first, then allowed values, nested classes, checks, reflection', () => {
    enum Level {
      Low = 'low',
      High = 'high',
    }
    class Inner {
      @Param() x!: string;
    }
    class Dto {
      @Param({ type: () => Number }) @IsInt() explicitInt!: unknown;
      @IsEnum(Level) level!: Level;
      @IsIn([1, 2, 3]) oneOf!: number;
      @IsInt({ each: true }) ints!: number[];
      @ValidateNested({ each: true }) @Type(() => Inner) inners!: Inner[];
      @Param() inner!: Inner;
      @IsNumber() @Param() ratio!: number;
      @IsObject() bag!: Record<string, string>;
      @Param({ type: () => [[String]] }) grid!: string[][];
    }
    expect(shapes(Dto)).toEqual({
      explicitInt: { kind: 'integer', keywords: {} },
      level: { kind: 'enum', values: ['low', 'high'], keywords: {} },
      oneOf: { kind: 'enum', values: [1, 2, 3], keywords: {} },
      ints: { kind: 'array', items: { kind: 'integer', keywords: {} }, keywords: {} },
      inners: { kind: 'array', items: { kind: 'class', type: Inner, keywords: {} }, keywords: {} },
      inner: { kind: 'class', type: Inner, keywords: {} },
      ratio: { kind: 'number', keywords: {} },
      bag: { kind: 'map', keywords: {} },
      grid: {
        kind: 'array',
        items: { kind: 'array', items: { kind: 'string', keywords: {} }, keywords: {} },
        keywords: {},
      },
    });
  });

  it('reports fields it cannot type instead of guessing', () => {
    class Dto {
      @Param() ok!: string;
      @Param() list!: number[];
      @Param({ type: () => [Map] }) weird!: unknown[];
    }
    expect(getClassModel(Dto).problems).toEqual([
      {
        propertyName: 'list',
        message: 'the array item type is unknown; give type: () => [X] (or @IsString({ each: true }), @Type(() => X))',
      },
      {
        propertyName: 'weird',
        message: 'type: () => Map is not supported; use String, Number, Boolean, a DTO class or [X]',
      },
    ]);
    expect(getClassModel(Dto).fields.map((field) => field.name)).toEqual(['ok']);
  });

  it('is computed once per class', () => {
    class Dto {
      @Param() a!: string;
    }
    expect(getClassModel(Dto)).toBe(getClassModel(Dto));
  });
});
