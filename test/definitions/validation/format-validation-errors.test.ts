import { ValidationError } from 'class-validator';
import { formatValidationErrors } from '../../../src/definitions/validation/format-validation-errors';

function error(fields: Partial<ValidationError>): ValidationError {
  return Object.assign(new ValidationError(), { children: [], ...fields });
}

describe('formatValidationErrors', () => {
  it("prefixes each field's message with the dotted / indexed path", () => {
    const items = [{ qty: 0 }];
    const errors = [
      error({
        target: { name: 1 },
        property: 'name',
        value: 1,
        constraints: { isString: 'name must be a string', minLength: 'name is too short' },
      }),
      error({
        target: { items },
        property: 'items',
        value: items,
        children: [
          error({
            target: items,
            property: '0',
            value: items[0],
            children: [
              error({
                target: items[0],
                property: 'qty',
                value: 0,
                constraints: { min: 'qty must not be less than 1' },
              }),
            ],
          }),
        ],
      }),
    ];
    // A failed type check is the only thing said about its field.
    expect(formatValidationErrors(errors)).toEqual([
      'name: name must be a string',
      'items[0].qty: qty must not be less than 1',
    ]);
  });

  it('replaces the checks of an absent property with one "is required"', () => {
    const errors = [
      error({
        target: {},
        property: 'city',
        value: undefined,
        constraints: { isString: 'city must be a string', minLength: 'x' },
      }),
    ];
    expect(formatValidationErrors(errors)).toEqual(['city: city is required']);
  });

  // Under useDefineForClassFields every declared field is an own property, set to undefined until a value arrives.
  it('reads a property present with the value undefined as left out, as @IsOptional does', () => {
    const errors = [
      error({
        target: { city: undefined },
        property: 'city',
        value: undefined,
        constraints: { isString: 'city must be a string' },
      }),
    ];
    expect(formatValidationErrors(errors)).toEqual(['city: city is required']);
  });

  it('writes a root-level error without a path', () => {
    const errors = [
      error({
        target: {},
        property: undefined,
        constraints: { unknownValue: 'an unknown value was passed' },
      }),
    ];
    expect(formatValidationErrors(errors)).toEqual(['an unknown value was passed']);
  });
});
