/** A JSON object from a request body: its fields are read one by one, never trusted to match a type. */
export type Fields = Record<string, unknown>;

/** `true` for a JSON object (not an array, not `null`). */
export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
