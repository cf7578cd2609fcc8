import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE,
  IS_DATE_STRING,
  IS_EMAIL,
  IS_ISO8601,
  IS_LENGTH,
  IS_NEGATIVE,
  IS_POSITIVE,
  IS_URL,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
  ValidationTypes,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { JsonSchema } from './json-schema';

type Converter = (constraints: readonly unknown[]) => JsonSchema;

// One entry per class-validator check that JSON Schema can express; the others are validated, not shown.
const CONVERTERS: Readonly<Record<string, Converter>> = {
  [MIN]: ([min]) => numeric('minimum', min),
  [MAX]: ([max]) => numeric('maximum', max),
  [IS_POSITIVE]: () => ({ exclusiveMinimum: 0 }),
  [IS_NEGATIVE]: () => ({ exclusiveMaximum: 0 }),
  [IS_LENGTH]: ([min, max]) => ({ ...numeric('minLength', min), ...numeric('maxLength', max) }),
  [MIN_LENGTH]: ([min]) => numeric('minLength', min),
  [MAX_LENGTH]: ([max]) => numeric('maxLength', max),
  [MATCHES]: ([pattern, modifiers]) => patternOf(pattern, modifiers),
  [IS_EMAIL]: () => ({ format: 'email' }),
  [IS_URL]: () => ({ format: 'uri' }),
  [IS_UUID]: () => ({ format: 'uuid' }),
  [IS_DATE_STRING]: () => ({ format: 'date-time' }),
  [IS_ISO8601]: () => ({ format: 'date-time' }),
  [ARRAY_MIN_SIZE]: ([min]) => numeric('minItems', min),
  [ARRAY_MAX_SIZE]: ([max]) => numeric('maxItems', max),
  [ARRAY_NOT_EMPTY]: () => ({ minItems: 1 }),
  [ARRAY_UNIQUE]: () => ({ uniqueItems: true }),
};

/**
 * The JSON Schema keywords implied by a property's class-validator checks at one level:
 * the value itself (`each: false`) or, for arrays, each item (`each: true`).
 *
 * @example constraintKeywords(metasOf(Dto, 'age'), false) // { minimum: 0, maximum: 130 }
 *
 * @internal
 */
export function constraintKeywords(metas: readonly ValidationMetadata[], each: boolean): JsonSchema {
  let keywords: JsonSchema = {};
  for (const meta of metas) {
    if (meta.type !== ValidationTypes.CUSTOM_VALIDATION || Boolean(meta.each) !== each) continue;
    const convert = meta.name === undefined ? undefined : CONVERTERS[meta.name];
    if (convert) keywords = { ...keywords, ...convert(meta.constraints ?? []) };
  }
  return keywords;
}

function numeric(keyword: keyof JsonSchema, value: unknown): JsonSchema {
  return typeof value === 'number' && Number.isFinite(value) ? { [keyword]: value } : {};
}

// A flagged regex (/x/i) has no JSON Schema spelling; showing it without the flag would mislead the model.
function patternOf(pattern: unknown, modifiers: unknown): JsonSchema {
  if (pattern instanceof RegExp) return pattern.flags.replace('g', '') === '' ? { pattern: pattern.source } : {};
  return typeof pattern === 'string' && !modifiers ? { pattern } : {};
}
