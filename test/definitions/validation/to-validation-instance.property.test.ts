import 'reflect-metadata';
import * as classTransformer from 'class-transformer';
import { Expose, Transform, Type } from 'class-transformer';
import { Allow, IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { Param } from '../../../src/decorators/param.decorator';
import { toValidationInstance } from '../../../src/definitions/validation/to-validation-instance';
import { validationClassOf } from '../../../src/definitions/validation/validation-class';
import type { ClassType } from '../../../src/metadata/options';

class Flat {
  @IsString() name!: string;
  @IsOptional() @IsInt() count?: number;
  @Param({ optional: true }) flag?: boolean;
  describe(): string {
    return this.name;
  }
}

class WithDefaults {
  @IsString() mode = 'fast';
  @Allow() format = (): string => 'text';
  @IsBoolean() loud = false;
  // A declared field whose constructor sets a function: class-transformer never overwrites it.
  @Param({ optional: true, type: () => String }) hook: unknown = (): string => 'hook';
}

class WithAccessor {
  private stored = '';
  @IsString() name!: string;
  @Allow()
  get upper(): string {
    return this.stored.toUpperCase();
  }
  set upper(value: string) {
    this.stored = String(value);
  }
  @Allow()
  get fixed(): string {
    return 'fixed';
  }
}

class Transformed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  name!: string;
  @Type(() => Number) @IsInt() count!: number;
  @IsString() plain!: string;
}

class Exposed {
  @Expose({ name: 'alias' }) @IsString() name!: string;
  @IsString() other!: string;
}

class Leaf {
  @IsString() label!: string;
}

class Nested {
  @IsString() name!: string;
  @Param({ optional: true }) leaf?: Leaf;
  @Param({ optional: true, type: () => [String] }) tags?: string[];
}

/** Each class with the keys it declares; arguments use them most of the time, and others now and then. */
const CLASSES: [ClassType, string[]][] = [
  [Flat, ['name', 'count', 'flag']],
  [WithDefaults, ['mode', 'format', 'loud', 'hook']],
  [WithAccessor, ['name', 'upper', 'fixed']],
  [Transformed, ['name', 'count', 'plain']],
  [Exposed, ['name', 'alias', 'other']],
  [Nested, ['name', 'leaf', 'tags']],
];
const OTHER_KEYS = ['describe', 'toString', 'hasOwnProperty', 'stored', 'unknown'];

/** What building an instance gave: its prototype, its own properties, or the error it threw. */
function outcome(build: () => object): unknown {
  try {
    const instance = build();
    // Functions made by the constructor differ on every call: compared by kind.
    const own = Object.entries(instance).map(([key, value]) => [key, typeof value === 'function' ? 'function' : value]);
    return { prototype: Object.getPrototypeOf(instance) as unknown, own };
  } catch (error) {
    return { threw: String(error) };
  }
}

describe('toValidationInstance', () => {
  it('builds what plainToInstance builds into the validation class, for any JSON arguments', () => {
    // Objects with keys class-transformer leaves out of the plain objects it copies.
    const awkward = fc.dictionary(fc.constantFrom('toString', 'valueOf', 'a'), fc.jsonValue({ maxDepth: 1 }));
    const primitive = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const value = fc.oneof(
      { weight: 4, arbitrary: primitive },
      fc.jsonValue({ maxDepth: 2 }),
      awkward,
      fc.array(awkward, { maxLength: 2 }),
    );
    const keyOf = (declared: string[]) =>
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...declared) }, fc.constantFrom(...OTHER_KEYS));
    const cases = fc
      .constantFrom(...CLASSES)
      .chain(([type, declared]) => fc.tuple(fc.constant(type), fc.dictionary(keyOf(declared), value, { maxKeys: 4 })));
    fc.assert(
      fc.property(cases, ([type, value]) => {
        const copy = () => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
        const fast = outcome(() => toValidationInstance(type, copy()));
        const reference = outcome(() =>
          classTransformer.plainToInstance(
            validationClassOf(type) as classTransformer.ClassConstructor<object>,
            copy(),
          ),
        );
        expect(fast).toStrictEqual(reference);
      }),
      { seed: 17, numRuns: 1000 },
    );
  });

  it('leaves class-transformer out for declared fields holding strings, numbers, booleans or null', () => {
    const spy = jest.spyOn(classTransformer, 'plainToInstance');
    try {
      toValidationInstance(Flat, { name: 'x', count: 2, flag: null });
      toValidationInstance(WithDefaults, { mode: 'slow', loud: true });
      expect(spy).not.toHaveBeenCalled();
      toValidationInstance(Nested, { name: 'x', leaf: { label: 'y' } });
      toValidationInstance(Transformed, { plain: 'x', name: ' y ' });
      toValidationInstance(Flat, { name: 'x', unknown: 1 });
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });
});
