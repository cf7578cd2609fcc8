import { instanceToPlain } from 'class-transformer';
import { toModelText } from '../../text/model-text';

/**
 * The text the model reads for a tool's return value: {@link toModelText} of `instanceToPlain(value)` for
 * objects, so class-transformer's `@Exclude()` keeps fields (password hashes, internal ids) away from the model.
 *
 * @example stringifyForModel(new User('ada', 'hash')) // '{"name":"ada"}' when passwordHash is @Exclude()d
 *
 * @internal
 */
export function stringifyForModel(value: unknown): string {
  return toModelText(typeof value === 'object' && value !== null ? instanceToPlain(value) : value);
}
