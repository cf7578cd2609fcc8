import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

/**
 * `uniqueItems` in time linear in the array's size: each item becomes canonical JSON (object keys sorted, so
 * `{a,b}` equals `{b,a}` as JSON Schema says) and goes into a hash set. Ajv's own check compares every pair of
 * non-primitive items, O(n²).
 *
 * @internal
 */
export const uniqueItemsKeyword: FuncKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate: uniqueItems(),
};

function uniqueItems(): SchemaValidateFunction {
  const validate: SchemaValidateFunction = (unique: boolean, data: readonly unknown[]): boolean => {
    validate.errors = undefined;
    if (!unique) return true;
    const seen = new Map<string, number>();
    for (let j = 0; j < data.length; j++) {
      const key = canonicalJson(data[j]);
      const i = seen.get(key);
      if (i !== undefined) {
        validate.errors = [
          {
            keyword: 'uniqueItems',
            message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`,
            params: { i, j },
          },
        ];
        return false;
      }
      seen.set(key, j);
    }
    return true;
  };
  return validate;
}

/** JSON text that is the same for equal JSON values: object keys in sorted order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
