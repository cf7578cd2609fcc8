import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  getMetadataStorage as getValidationStorage,
  IsEmail,
  IsInt,
  IsNotEmpty,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { Param } from '../../../src/decorators/param.decorator';
import * as completion from '../../../src/definitions/validation/complete-field-validation';
import { validationClassOf } from '../../../src/definitions/validation/validation-class';
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

  it('adds only what is missing to the validation class, and never a second type check', () => {
    const checked = validationClassOf(Dto);
    expect(checksOf(checked, 'name')).toEqual(['whitelistValidation', 'isString']);
    expect(checksOf(checked, 'count')).toEqual(['isInt', 'whitelistValidation', 'isOptional']);
    expect(checksOf(checked, 'size')).toEqual(['whitelistValidation', 'isIn']);
    expect(checksOf(checked, 'scores')).toEqual(['whitelistValidation', 'isArray', 'isNumber']);
    expect(checksOf(checked, 'flag')).toEqual(['whitelistValidation', 'isBoolean']);
    expect(checksOf(checked, 'inner')).toEqual(['whitelistValidation', 'nestedValidation', 'isObject']);
    expect(checksOf(checked, 'email')).toEqual(['isEmail']);
    expect(checksOf(checked, 'other')).toEqual(['nestedValidation', 'isObject']);
  });

  it("leaves the user's class with exactly the checks it was written with", () => {
    const before = ['name', 'count', 'size', 'inner', 'other'].map((p) => checksOf(Dto, p));
    validationClassOf(Dto);
    expect(['name', 'count', 'size', 'inner', 'other'].map((p) => checksOf(Dto, p))).toEqual(before);
    expect(checksOf(Dto, 'name')).toEqual(['whitelistValidation']);
    // The verdict of plain class-validator on the user's class is unchanged: { name: 42 } is still allowed.
    const value = plainToInstance(Inner, { label: 42 });
    const verdict = () => validateSync(value).length; // 0: @Param alone only allows the property
    const first = verdict();
    validationClassOf(Inner);
    expect(verdict()).toBe(first);
  });

  it('is done once per class', () => {
    class Once {
      @Param() a!: string;
      @Param() b!: number;
    }
    const spy = jest.spyOn(completion, 'completeFieldValidation');
    try {
      const first = validationClassOf(Once);
      expect(validationClassOf(Once)).toBe(first);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it("restates the user's checks, so completing a field never hides a base class's checks", () => {
    class Base {
      @IsNotEmpty() @Param() title!: string;
    }
    class Derived extends Base {
      @Param() extra!: string;
    }
    const checked = validationClassOf(Derived);
    expect(checksOf(checked, 'title')).toEqual(['whitelistValidation', 'isNotEmpty', 'isString']);
    expect(checksOf(Base, 'title')).toEqual(['whitelistValidation', 'isNotEmpty']);
    // Had isString been added without restating, class-validator would have hidden Base's isNotEmpty.
    const instance = plainToInstance(checked as typeof Derived, { title: '', extra: 'x' });
    expect(validateSync(instance).map((error) => Object.keys(error.constraints ?? {}))).toEqual([['isNotEmpty']]);
  });
});
