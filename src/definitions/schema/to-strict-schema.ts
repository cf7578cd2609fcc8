import type { JsonSchema, JsonSchemaType } from './json-schema';

// The formats OpenAI's strict mode accepts; others (uri, ...) are still validated, just not shown.
const STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const PRIMITIVES: ReadonlySet<JsonSchemaType> = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * A strict-mode schema, and what could not be expressed in strict mode.
 *
 * @internal
 */
export type StrictSchemaResult = { readonly schema: JsonSchema; readonly problems: readonly string[] };

/**
 * Rewrite a parameters schema for OpenAI strict mode: every property required, optional ones nullable
 * (`type: [T, 'null']`, or `anyOf: [T, { type: 'null' }]` for objects, arrays and enums),
 * `additionalProperties: false` on every object, and keywords strict mode refuses (`minLength`, `maxLength`,
 * `uniqueItems`, `examples`, `default`, unsupported formats) dropped; the validation still enforces them.
 *
 * A free-form object (no listed properties) has no strict form and is reported as a problem.
 *
 * @example
 * toStrictSchema({ type: 'object', properties: { n: { type: 'integer' } }, required: [], additionalProperties: false })
 * // { schema: { type: 'object', properties: { n: { type: ['integer', 'null'] } }, required: ['n'], additionalProperties: false }, problems: [] }
 *
 * @internal
 */
export function toStrictSchema(schema: JsonSchema): StrictSchemaResult {
  const problems: string[] = [];
  const convert = (node: JsonSchema, path: string): JsonSchema => {
    const { minLength, maxLength, uniqueItems, examples, default: _default, format, ...kept } = node;
    const out: JsonSchema = kept;
    if (format !== undefined && STRICT_FORMATS.has(format)) out.format = format;
    if (node.type === 'object' && node.properties === undefined) {
      problems.push(
        `field "${path}" is a free-form object (a Record or @IsObject()), which strict mode cannot express; give it a DTO class or set strict: false`,
      );
    }
    if (node.properties !== undefined) {
      const required = new Set(node.required ?? []);
      out.properties = {};
      for (const [key, child] of Object.entries(node.properties)) {
        const strictChild = convert(child, path ? `${path}.${key}` : key);
        out.properties[key] = required.has(key) ? strictChild : nullable(strictChild);
      }
      out.required = Object.keys(node.properties);
      out.additionalProperties = false;
    }
    if (node.items !== undefined) out.items = convert(node.items, `${path}[]`);
    if (node.anyOf !== undefined) out.anyOf = node.anyOf.map((branch) => convert(branch, path));
    if (node.$defs !== undefined) {
      out.$defs = Object.fromEntries(Object.entries(node.$defs).map(([name, def]) => [name, convert(def, name)]));
    }
    return out;
  };
  return { schema: convert(schema, ''), problems };
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && PRIMITIVES.has(schema.type) && schema.enum === undefined) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: 'null' }] };
}
