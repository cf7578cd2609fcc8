import { instanceToPlain } from 'class-transformer';

/**
 * The text the model reads for a tool's return value: strings as they are, `undefined`/`null` as `''`,
 * anything else as JSON of `instanceToPlain(value)`, so class-transformer's `@Exclude()` keeps fields
 * (password hashes, internal ids) away from the model.
 *
 * @example stringifyForModel(new User('ada', 'hash')) // '{"name":"ada"}' when passwordHash is @Exclude()d
 *
 * @internal
 */
export function stringifyForModel(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') return JSON.stringify(instanceToPlain(value)) ?? '';
  // Functions and symbols have no JSON form.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only values JSON cannot show reach here (functions, symbols, primitives)
  return JSON.stringify(value) ?? String(value);
}
