import {
  IS_DATE_STRING,
  IS_EMAIL,
  IS_ISO8601,
  IS_LENGTH,
  IS_STRING,
  IS_URL,
  IS_UUID,
  MATCHES,
  MAX_LENGTH,
  MIN_LENGTH,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * Whether a property carries the named class-validator check at one level (the value, or each array item).
 *
 * @internal
 */
export function hasCheck(metas: readonly ValidationMetadata[], name: string, each: boolean): boolean {
  return metas.some((meta) => meta.name === name && Boolean(meta.each) === each);
}

/**
 * class-validator checks that only pass for strings, so each one both types a field and checks it.
 *
 * @internal
 */
export const STRING_CHECKS: readonly string[] = [
  IS_STRING,
  IS_EMAIL,
  IS_URL,
  IS_UUID,
  IS_DATE_STRING,
  IS_ISO8601,
  MATCHES,
  IS_LENGTH,
  MIN_LENGTH,
  MAX_LENGTH,
];
