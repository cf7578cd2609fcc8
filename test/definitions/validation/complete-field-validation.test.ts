import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  getMetadataStorage as getValidationStorage,
  IsEmail,
  IsInt,
  IsNotEmpty,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import { getClassModel } from '../../../src/definitions/model/get-class-model';
import * as completion from '../../../src/definitions/validation/complete-field-validation';
import type { ClassRef } from '../../../src/metadata/options';

function checksOf(type: ClassRef, property: string): string[] {
  return getValidationStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .filter((meta) => meta.propertyName === property)
    .map((meta) => meta.name ?? meta.type);
}

describe('completing a class with the checks its schema promises', () => {
  enum Size {
    S = 's',
    L = 'l',
  }
  class Inner {
    @Param() label!: string;
  }
  class Dto {
    @Param() name!: string;
    @Param({ optional: true }) @IsInt() count?: number;
    @Param({ enum: Size }) size!: Size;
    @Param({ type: () => [Number] }) scores!: number[];
    @Param() flag!: boolean;
    @Param() inner!: Inner;
    @IsEmail() email!: string;
    @ValidateNested() @Type(() => Inner) other!: Inner;
  }

  it('adds only what is missing, and never a second type check', () => {
    getClassModel(Dto);
    expect(checksOf(Dto, 'name')).toEqual(['whitelistValidation', 'isString']);
    expect(checksOf(Dto, 'count')).toEqual(['isInt', 'whitelistValidation', 'isOptional']);
    expect(checksOf(Dto, 'size')).toEqual(['whitelistValidation', 'isIn']);
    expect(checksOf(Dto, 'scores')).toEqual(['whitelistValidation', 'isArray', 'isNumber']);
    expect(checksOf(Dto, 'flag')).toEqual(['whitelistValidation', 'isBoolean']);
    expect(checksOf(Dto, 'inner')).toEqual(['whitelistValidation', 'nestedValidation', 'isObject']);
    expect(checksOf(Dto, 'email')).toEqual(['isEmail']);
    expect(checksOf(Dto, 'other')).toEqual(['nestedValidation', 'isObject']);
  });

  it('is done once per class', () => {
    class Once {
      @Param() name!: string;
      @Param() size!: number;
    }
    const complete = jest.spyOn(completion, 'completeFieldValidation');
    try {
      getClassModel(Once);
      getClassModel(Once);
      expect(complete.mock.calls.map(([facts]) => facts.propertyName)).toEqual(['name', 'size']);
    } finally {
      complete.mockRestore();
    }
    expect(checksOf(Once, 'name')).toEqual(['whitelistValidation', 'isString']);
  });

  it('puts the checks on the declaring class, so a base class keeps its own checks', () => {
    class Base {
      @IsNotEmpty() @Param() title!: string;
    }
    class Derived extends Base {
      @Param() extra!: string;
    }
    getClassModel(Derived);
    expect(checksOf(Base, 'title')).toEqual(['whitelistValidation', 'isNotEmpty', 'isString']);
    // Had isString gone on Derived, class-validator would have hidden Base's isNotEmpty.
    const instance = Object.assign(new Derived(), { title: '', extra: 'x' });
    expect(validateSync(instance).map((error) => Object.keys(error.constraints ?? {}))).toEqual([['isNotEmpty']]);
  });
});
