import { isRecord } from '../utils/is-record';

type Schema = Record<string, unknown>;

/**
 * A copy of `value` without the `null`s strict mode made the model send for optional fields: a property the
 * original schema does not require, whose value is `null`, is left out, at any depth (objects, array items, `$ref`s
 * into `$defs` / `definitions`). The DTO path drops them itself; a foreign Standard Schema (`z.string().optional()`)
 * would refuse them. Anything the schema does not describe is kept as it is.
 *
 * @example dropOptionalNulls({ type: 'object', properties: { note: { type: 'string' } }, required: [] }, { note: null }) // {}
 *
 * @internal
 */
export function dropOptionalNulls(schema: Schema, value: unknown): unknown {
  const defs = { ...asRecord(schema.definitions), ...asRecord(schema.$defs) };
  const visit = (node: Schema, current: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) return current;
    const target = resolve(node, defs);
    if (Array.isArray(current)) {
      return isRecord(target.items) ? current.map((item) => visit(target.items as Schema, item, depth + 1)) : current;
    }
    if (!isRecord(current) || !isRecord(target.properties)) return current;
    const properties = target.properties;
    const required = new Set(Array.isArray(target.required) ? target.required : []);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(current)) {
      const childSchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (child === null && isRecord(childSchema) && !required.has(key)) continue;
      out[key] = isRecord(childSchema) ? visit(childSchema, child, depth + 1) : child;
    }
    return out;
  };
  return visit(schema, value, 0);
}

// Deeper than any DTO a model answers with; stops a self-referencing `$ref` from looping on a deep value.
const MAX_DEPTH = 64;

function resolve(node: Schema, defs: Record<string, unknown>): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
  const def = name !== undefined && Object.hasOwn(defs, name) ? defs[name] : undefined;
  return isRecord(def) ? def : node;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
