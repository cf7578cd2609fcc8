import 'reflect-metadata';
import { Param } from '../../../src/decorators/param.decorator';
import { normalizeArgs } from '../../../src/definitions/validation/normalize-args';

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

describe('normalizeArgs', () => {
  it('deletes nulls of optional fields, through nested objects and arrays, and keeps required nulls', () => {
    const value: Record<string, unknown> = {
      name: null,
      note: null,
      legs: [{ from: 'OSL', via: null }, { from: null, via: 'CPH' }, 'junk'],
      first: { from: 'OSL', via: null },
      extra: null,
    };
    normalizeArgs(value, Trip);
    expect(value).toEqual({
      name: null,
      legs: [{ from: 'OSL' }, { from: null, via: 'CPH' }, 'junk'],
      first: { from: 'OSL' },
      extra: null,
    });
  });

  it('deletes an optional nested object sent as null', () => {
    const value: Record<string, unknown> = { name: 'x', legs: [], first: null };
    normalizeArgs(value, Trip);
    expect(value).toEqual({ name: 'x', legs: [] });
  });
});
