import { applyProfile } from '../../../src/definitions/profiles/apply-profile';
import { PROFILE_RULES } from '../../../src/definitions/profiles/profile-rules';
import type { JsonSchema } from '../../../src/definitions/schema/json-schema';

const toStrictSchema = (schema: JsonSchema) => applyProfile(schema, PROFILE_RULES['openai-strict']);

describe('applyProfile with openai-strict', () => {
  it('requires every property and makes the optional ones nullable', () => {
    const { schema, problems } = toStrictSchema({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name' },
        age: { type: 'integer', minimum: 0 },
        color: { type: 'string', enum: ['red'], description: 'Color' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(problems).toEqual([]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name' },
        age: { type: ['integer', 'null'], minimum: 0 },
        color: { description: 'Color', anyOf: [{ type: 'string', enum: ['red'] }, { type: 'null' }] },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      },
      required: ['name', 'age', 'color', 'tags'],
      additionalProperties: false,
    });
  });

  it('leaves out keywords strict mode refuses, states them in the description, keeps the ones it accepts', () => {
    const { schema, omissions } = toStrictSchema({
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[A-Z]+$', examples: ['OSL'] },
        site: { type: 'string', format: 'uri' },
        mail: { type: 'string', format: 'email' },
        list: { type: 'array', items: { type: 'number', maximum: 3 }, uniqueItems: true, maxItems: 4 },
      },
      required: ['code', 'site', 'mail', 'list'],
      additionalProperties: false,
    });
    expect(schema.properties).toEqual({
      code: {
        description: 'at least 2 characters, at most 3 characters, for example: "OSL"',
        type: 'string',
        pattern: '^[A-Z]+$',
      },
      site: { description: 'format: uri', type: 'string' },
      mail: { type: 'string', format: 'email' },
      list: { description: 'no duplicate items', type: 'array', items: { type: 'number', maximum: 3 }, maxItems: 4 },
    });
    expect(omissions).toEqual([
      { path: 'code', keyword: 'minLength', value: 2, statedAs: 'at least 2 characters' },
      { path: 'code', keyword: 'maxLength', value: 3, statedAs: 'at most 3 characters' },
      { path: 'code', keyword: 'examples', value: ['OSL'], statedAs: 'for example: "OSL"' },
      { path: 'site', keyword: 'format', value: 'uri', statedAs: 'format: uri' },
      { path: 'list', keyword: 'uniqueItems', value: true, statedAs: 'no duplicate items' },
    ]);
  });

  it('rewrites nested objects, array items and $defs, and forbids additional properties everywhere', () => {
    const { schema } = toStrictSchema({
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } }, required: [] } },
        next: { $ref: '#/$defs/Node' },
      },
      required: ['items', 'next'],
      $defs: { Node: { type: 'object', properties: { v: { type: 'number' } }, required: [] } },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { a: { type: ['string', 'null'] } },
            required: ['a'],
            additionalProperties: false,
          },
        },
        next: { $ref: '#/$defs/Node' },
      },
      required: ['items', 'next'],
      additionalProperties: false,
      $defs: {
        Node: {
          type: 'object',
          properties: { v: { type: ['number', 'null'] } },
          required: ['v'],
          additionalProperties: false,
        },
      },
    });
  });

  it('reports free-form objects with their path', () => {
    const { problems } = toStrictSchema({
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: { type: 'object', properties: { meta: { type: 'object' } }, required: ['meta'] },
        },
      },
      required: ['list'],
    });
    expect(problems).toEqual([
      'field "list[].meta" is a free-form object (a Record or @IsObject()), which strict mode cannot express; give it a DTO class or set strict: false',
    ]);
  });
});
