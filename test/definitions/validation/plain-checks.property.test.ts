import 'reflect-metadata';
import {
  Allow,
  ArrayMaxSize,
  Contains,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  validateSync,
  type ValidatorConstraintInterface,
} from 'class-validator';
import * as classValidator from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../../src/decorators/param.decorator';
import { normalizeArgs } from '../../../src/definitions/validation/normalize-args';
import { plainChecksOf } from '../../../src/definitions/validation/plain-checks';
import { toValidationInstance } from '../../../src/definitions/validation/to-validation-instance';
import { validateArgs } from '../../../src/definitions/validation/validate-args';
import type { ClassType } from '../../../src/metadata/options';
import { buildDto, fieldsArb, valueArb } from '../generated-dtos';

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}

// validateSync skips async constraints, and reports nothing for a sync one that returns a promise.
@ValidatorConstraint({ name: 'remote', async: true })
class Remote implements ValidatorConstraintInterface {
  validate(): boolean {
    return false;
  }
}

@ValidatorConstraint({ name: 'later' })
class Later implements ValidatorConstraintInterface {
  validate(value: unknown): boolean | Promise<boolean> {
    return typeof value === 'string' ? Promise.resolve(false) : value === true;
  }
}

class Base {
  @IsString() @Contains('a') name!: string;
}

class Mixed extends Base {
  @IsOptional() @IsInt() @Min(0) @Max(9) count?: number;
  @Validate(Even) even!: number;
  @IsDefined() @Allow() anything!: unknown;
  @ValidateIf((o: Mixed) => o.count !== 3) @IsIn(['x', 'y']) mode!: string;
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(2) tags?: string[];
  @IsOptional() @Validate(Remote) @Validate(Later) remote?: unknown;
  @IsOptional() @Validate(Later, { each: true }) later?: unknown;
  @IsOptional() @IsInt({ validateIf: (o: Mixed) => o.mode === 'y' }) sometimes?: unknown;
  @IsOptional() @IsInt({ groups: ['admin'] }) @IsInt({ always: true }) grouped?: number;
  @Param({ optional: true, type: () => Number }) declared?: number;
}

const KEYS = [
  'name',
  'count',
  'even',
  'anything',
  'mode',
  'tags',
  'remote',
  'later',
  'sometimes',
  'grouped',
  'declared',
  'other',
];
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('a', 'ab', 'b', 'x', 'y', '', null, 0, 2, 3, 4, 10, -1, 2.5, true, false),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('name', 'k'), tie('value'), { maxKeys: 2 }),
  ),
})).value;

/** The instance the loop validates for `value`: normalized, then built as parseParams builds it. */
function instanceOf(type: ClassType, value: Record<string, unknown>): object {
  const args = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  normalizeArgs(args, type);
  return toValidationInstance(type, args);
}

/** Both verdicts on one value, and whether the shortcut covered it. */
function verdicts(type: ClassType, value: Record<string, unknown>): { fast?: boolean; full: boolean } {
  const instance = instanceOf(type, value);
  const check = plainChecksOf(instance.constructor as ClassType);
  return { fast: check?.(instance), full: validateSync(instance, OPTIONS).length === 0 };
}

describe('plainChecksOf', () => {
  it('agrees with validateSync on every value, for generated DTOs without nesting', () => {
    const seen = { pass: 0, fail: 0 };
    fc.assert(
      fc.property(
        fieldsArb(false, 0).chain((fields) => fc.tuple(fc.constant(fields), fc.array(valueArb(fields, false)))),
        ([fields, values]) => {
          const Dto = buildDto(fields);
          for (const value of values) {
            const { fast, full } = verdicts(Dto, value);
            expect(fast).toBe(full);
            seen[full ? 'pass' : 'fail']++;
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(seen.pass).toBeGreaterThan(100);
    expect(seen.fail).toBeGreaterThan(100);
  });

  it('agrees with validateSync for conditions, IsDefined, user, async and grouped constraints and inheritance', () => {
    const seen = { pass: 0, fail: 0 };
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), json, { maxKeys: 8 }), (partial) => {
        // Mostly valid calls, with some keys of them replaced by generated values.
        const value = { name: 'a', even: 2, anything: 0, mode: 'x', ...partial };
        const { fast, full } = verdicts(Mixed, value);
        expect(fast).toBe(full);
        seen[full ? 'pass' : 'fail']++;
      }),
      { numRuns: 1000 },
    );
    expect(seen.pass).toBeGreaterThan(100);
    expect(seen.fail).toBeGreaterThan(100);
  });

  it('leaves nested validation to validateSync', () => {
    class Leaf {
      @IsString() label!: string;
    }
    class Outer {
      @Param({ type: () => Leaf }) leaf!: Leaf;
    }
    const instance = instanceOf(Outer, { leaf: { label: 'x' } });
    expect(plainChecksOf(instance.constructor as ClassType)).toBeUndefined();
    expect(validateArgs(Outer, { leaf: { label: 3 } }).ok).toBe(false);
    expect(validateArgs(Outer, { leaf: { label: 'x' } }).ok).toBe(true);
  });

  it('sees checks added to an ancestor after its first use', () => {
    class Parent {
      @IsString() name!: string;
    }
    class Child extends Parent {
      @IsInt() size!: number;
    }
    expect(verdicts(Child, { name: 'n', size: 1 })).toEqual({ fast: true, full: true });
    IsDefined()(Parent.prototype, 'flag');
    expect(verdicts(Child, { name: 'n', size: 1 })).toEqual({ fast: false, full: false });
    // A class that gains its first checks later is seen too.
    class Grand {}
    class Late extends Grand {
      @IsString() name!: string;
    }
    expect(verdicts(Late, { name: 'n' })).toEqual({ fast: true, full: true });
    IsDefined()(Grand.prototype, 'flag');
    expect(verdicts(Late, { name: 'n' })).toEqual({ fast: false, full: false });
  });

  it('answers passing calls without validateSync, and asks it for the messages of a failing one', () => {
    class Args {
      @IsString() city!: string;
    }
    const spy = jest.spyOn(classValidator, 'validateSync');
    try {
      expect(validateArgs(Args, { city: 'Oslo' }).ok).toBe(true);
      expect(spy).not.toHaveBeenCalled();
      const failed = validateArgs(Args, { city: 3 });
      expect(failed.ok || failed.errors[0].constraints).toEqual({ isString: 'city must be a string' });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
