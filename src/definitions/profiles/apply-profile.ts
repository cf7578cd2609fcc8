import type { JsonSchema, JsonSchemaType } from '../schema/json-schema';
import type { ProfileKeyword, ProfileRules } from './profile-rules';
import { stateKeyword } from './state-keyword';

/**
 * One keyword a profile left out of a schema: where (`path`: `''` for the arguments object, `a.b` for a nested
 * field, `a[]` for an array's items), its value, and what the field's description says instead.
 *
 * @internal
 */
export type KeywordOmission = {
  readonly path: string;
  readonly keyword: ProfileKeyword;
  readonly value: unknown;
  readonly statedAs?: string;
};

/**
 * A schema rewritten for a profile, the keywords it left out, and what the profile cannot express at all.
 *
 * @internal
 */
export type ProfiledSchema = {
  readonly schema: JsonSchema;
  readonly omissions: readonly KeywordOmission[];
  readonly problems: readonly string[];
};

// The order a description states left-out keywords in, whatever order the decorators were applied in.
const STATED_ORDER: readonly ProfileKeyword[] = [
  '$ref',
  'enum',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'additionalProperties',
  'default',
  'examples',
];

const PRIMITIVES: ReadonlySet<JsonSchemaType | JsonSchemaType[] | undefined> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
]);

/**
 * Rewrite a parameters schema for a profile: every keyword the profile leaves out is removed and, when it is
 * worth saying, stated in that node's description (`"Forecast days (at least 1, at most 7)"`); a left-out `$ref`
 * becomes a plain object. With `strictForm`, OpenAI's strict rules as well: every property required, optional
 * ones nullable (`type: [T, 'null']`, or `anyOf: [T, { type: 'null' }]` for objects, arrays and enums), and
 * `additionalProperties: false` on every object; a free-form object (no listed properties) is a problem.
 *
 * Pure: the input is not changed, and a profile that leaves nothing out returns it as it is.
 *
 * @example
 * applyProfile({ type: 'object', properties: { days: { type: 'integer', maximum: 7 } }, required: [] }, PROFILE_RULES.anthropic)
 * // { schema: { ..., days: { description: 'at most 7', type: 'integer' } }, omissions: [{ path: 'days', keyword: 'maximum', value: 7, statedAs: 'at most 7' }], problems: [] }
 *
 * @internal
 */
export function applyProfile(schema: JsonSchema, rules: ProfileRules): ProfiledSchema {
  if (!rules.strictForm && Object.keys(rules.leftOut).length === 0) return { schema, omissions: [], problems: [] };
  const omissions: KeywordOmission[] = [];
  const problems: string[] = [];
  const dropRefs = rules.leftOut.$ref !== undefined;
  const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

  const convert = (node: JsonSchema, path: string): JsonSchema => {
    const out: Record<string, unknown> = {};
    const left: KeywordOmission[] = [];
    for (const [key, value] of Object.entries(node) as [keyof JsonSchema, unknown][]) {
      if (key === 'description') continue;
      if (key === 'properties') out.properties = convertProperties(node, path);
      else if (key === 'items') out.items = convert(value as JsonSchema, `${path}[]`);
      else if (key === 'anyOf') out.anyOf = (value as JsonSchema[]).map((branch) => convert(branch, path));
      else if (key === '$defs') {
        if (!dropRefs) out.$defs = convertDefs(value as Record<string, JsonSchema>);
      } else if (isLeftOut(key, value)) {
        const statedAs = stateKeyword(key, value);
        left.push({ path, keyword: key as ProfileKeyword, value, ...(statedAs !== undefined && { statedAs }) });
        if (key === '$ref') out.type = 'object';
      } else out[key] = value;
    }
    left.sort((a, b) => STATED_ORDER.indexOf(a.keyword) - STATED_ORDER.indexOf(b.keyword));
    omissions.push(...left);
    const stated = left.flatMap((omission) => (omission.statedAs === undefined ? [] : [omission.statedAs]));
    if (rules.strictForm && node.properties !== undefined) {
      out.required = Object.keys(node.properties);
      out.additionalProperties = false;
    }
    if (rules.strictForm && node.type === 'object' && node.properties === undefined) {
      problems.push(
        `field "${path}" is a free-form object (a Record or @IsObject()), which strict mode cannot express; give it a DTO class or set strict: false`,
      );
    }
    const description = describe(node.description, stated);
    return { ...(description !== undefined && { description }), ...(out as JsonSchema) };
  };

  const convertProperties = (node: JsonSchema, path: string): Record<string, JsonSchema> => {
    const required = new Set(node.required ?? []);
    const properties: Record<string, JsonSchema> = {};
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const converted = convert(child, join(path, key));
      properties[key] = rules.strictForm && !required.has(key) ? nullable(converted) : converted;
    }
    return properties;
  };

  const convertDefs = (defs: Record<string, JsonSchema>): Record<string, JsonSchema> =>
    Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, convert(def, name)]));

  const isLeftOut = (key: string, value: unknown): boolean => {
    const rule = rules.leftOut[key as ProfileKeyword];
    return rule !== undefined && (rule.when?.(value) ?? true);
  };

  return { schema: convert(schema, ''), omissions, problems };
}

function describe(description: string | undefined, stated: readonly string[]): string | undefined {
  if (stated.length === 0) return description;
  const text = stated.join(', ');
  return description === undefined ? text : `${description} (${text})`;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && PRIMITIVES.has(schema.type) && schema.enum === undefined) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: 'null' }] };
}
