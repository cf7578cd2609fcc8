import 'reflect-metadata';
import { Param } from '../../../src/decorators/param.decorator';
import { stripOptionalNulls } from '../../../src/definitions/validation/strip-optional-nulls';

class Leg {
  @Param() from!: string;
  @Param({ optional: true }) via?: string;
}

class Trip {
  @Param() name!: string;
  @Param({ optional: true }) note?: string;
  @Param({ type: () => [Leg] }) legs!: Leg[];
  @Param({ optional: true }) first?: Leg;
}

describe('stripOptionalNulls', () => {
  it('deletes nulls of optional fields, through nested objects and arrays, and keeps required nulls', () => {
    const value: Record<string, unknown> = {
      name: null,
      note: null,
      legs: [{ from: 'OSL', via: null }, { from: null, via: 'CPH' }, 'junk'],
      first: { from: 'OSL', via: null },
      extra: null,
    };
    stripOptionalNulls(value, Trip);
    expect(value).toEqual({
      name: null,
      legs: [{ from: 'OSL' }, { from: null, via: 'CPH' }, 'junk'],
      first: { from: 'OSL' },
      extra: null,
    });
  });

  it('deletes an optional nested object sent as null', () => {
    const value: Record<string, unknown> = { name: 'x', legs: [], first: null };
    stripOptionalNulls(value, Trip);
    expect(value).toEqual({ name: 'x', legs: [] });
  });
});
