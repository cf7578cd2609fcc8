import { remoteSchemaProblem } from '../../src/mcp/remote-schema-caps';

const CAPS = { maxSchemaChars: 32_768, maxEnumValues: 1_000, maxProperties: 1_000, maxPatterns: 100 };
const problemOf = (schema: object) => remoteSchemaProblem('t', schema, CAPS)?.problem;

describe('remoteSchemaProblem', () => {
  it('keeps recursion that steps into the data (a tree of nodes)', () => {
    const tree = {
      type: 'object',
      properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    };
    expect(problemOf(tree)).toBeUndefined();
    expect(
      problemOf({ $defs: { node: { properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' }),
    ).toBeUndefined();
  });

  it('refuses cycles that never step into the data', () => {
    expect(problemOf({ type: 'object', $ref: '#' })).toBe('recursive');
    expect(problemOf({ allOf: [{ $ref: '#/$defs/a' }], $defs: { a: { anyOf: [{ $ref: '#' }] } } })).toBe('recursive');
    expect(problemOf({ properties: { x: { not: { $ref: '#/properties/x' } } } })).toBe('recursive');
    expect(problemOf({ $defs: { 'a/b': { $ref: '#/$defs/a~1b' } } })).toBe('recursive');
  });

  it('counts enum values, properties and patterns across the whole schema', () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(problemOf({ properties: many(1_000) })).toBeUndefined();
    expect(problemOf({ properties: many(600), $defs: { d: { properties: many(401) } } })).toBe('over_cap');
    expect(problemOf({ anyOf: [{ enum: Array(600).fill(1) }, { enum: Array(401).fill(2) }] })).toBe('over_cap');
    expect(problemOf({ patternProperties: { '^a': {} }, properties: { x: { pattern: 'b' } } })).toBeUndefined();
    const patterns = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`^${i}`, {}]));
    expect(problemOf({ patternProperties: patterns })).toBe('over_cap');
  });

  it('refuses a schema too long or too deep', () => {
    expect(problemOf({ description: 'x'.repeat(40_000) })).toBe('too_large');
    let deep: object = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { items: deep };
    expect(problemOf(deep)).toBe('over_cap');
  });
});
