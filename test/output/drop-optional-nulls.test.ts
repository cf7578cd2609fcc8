import { dropOptionalNulls } from '../../src/output/drop-optional-nulls';
import { outputName } from '../../src/output/output-name';

describe('dropOptionalNulls', () => {
  const schema = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      note: { type: 'string' },
      lines: { type: 'array', items: { $ref: '#/$defs/Line' } },
      address: { $ref: '#/definitions/Address' },
    },
    required: ['id', 'lines'],
    $defs: {
      Line: { type: 'object', properties: { sku: { type: 'string' }, memo: { type: 'string' } }, required: ['sku'] },
    },
    definitions: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: [] } },
  };

  it('drops nulls of optional properties at any depth, through $ref, and keeps the rest', () => {
    const value = {
      id: null,
      note: null,
      lines: [
        { sku: null, memo: null },
        { sku: 'A', memo: 'x' },
      ],
      address: { city: null },
      unknown: null,
    };
    expect(dropOptionalNulls(schema, value)).toEqual({
      id: null,
      lines: [{ sku: null }, { sku: 'A', memo: 'x' }],
      address: {},
      unknown: null,
    });
    expect(value.note).toBeNull();
  });

  it('leaves values the schema does not describe as they are, and ignores refs to prototype names', () => {
    expect(dropOptionalNulls(schema, 'text')).toBe('text');
    expect(dropOptionalNulls(schema, [null])).toEqual([null]);
    const hostile = { type: 'object', properties: { a: { $ref: '#/$defs/__proto__' } }, required: [] };
    expect(dropOptionalNulls(hostile, { a: { b: null } })).toEqual({ a: { b: null } });
    const looping = {
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
      $ref: '#/$defs/Node',
    };
    let deep: unknown = null;
    for (let i = 0; i < 200; i++) deep = { next: deep };
    expect(() => dropOptionalNulls(looping, deep)).not.toThrow();
  });
});

describe('outputName', () => {
  it('matches ^[a-zA-Z0-9_-]{1,64}$ whatever it is given', () => {
    expect(outputName(undefined, 'OrderDto', 'ignored')).toBe('OrderDto');
    expect(outputName(' ', undefined, 'Order (v2)')).toBe('Order_v2_');
    expect(outputName(undefined, '', undefined)).toBe('output');
    expect(outputName('ü', undefined, undefined)).toBe('_');
    expect(outputName('x'.repeat(99), undefined, undefined)).toBe('x'.repeat(64));
    for (const name of ['a b', 'Δ', '', '../x', 'é'.repeat(80)]) {
      expect(outputName(name, undefined, 42)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });
});
