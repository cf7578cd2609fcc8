import type { SchemaProfile } from './schema-profile';

/**
 * The keywords a profile may leave out: every constraint and annotation keyword agentcall emits. `type`,
 * `description`, `properties`, `required` and `items` are carried by every profile.
 *
 * @internal
 */
export type ProfileKeyword =
  | 'additionalProperties'
  | '$ref'
  | 'enum'
  | 'default'
  | 'examples'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems';

/**
 * One keyword a profile leaves out of its schema.
 *
 * @internal
 */
export type LeftOutRule = {
  /** Left out only for the values this accepts; for every value when absent. */
  readonly when?: (value: unknown) => boolean;
  /** The public document the rule is read from, and what it says. */
  readonly source: string;
};

/**
 * What one profile does to the full schema.
 *
 * @internal
 */
export type ProfileRules = {
  /** OpenAI's strict form: every property required, optional ones nullable, `strict: true` on the function. */
  readonly strictForm: boolean;
  readonly leftOut: Readonly<Partial<Record<ProfileKeyword, LeftOutRule>>>;
};

const OPENAI_STRICT =
  'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas: strict mode supports, for strings, ' +
  '`pattern` and `format` (date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid); for numbers, ' +
  '`multipleOf`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`; for arrays, `minItems`, `maxItems`; ' +
  'keywords outside the supported subset are refused';
const OPENAI_STRICT_FORMATS: ReadonlySet<unknown> = new Set([
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

const GEMINI_SCHEMA =
  'https://ai.google.dev/api/caching#Schema: function parameters are "a select subset of an OpenAPI 3.0 schema ' +
  'object": type, format, title, description, nullable, enum (strings), maxItems, minItems, properties, required, ' +
  'minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf, propertyOrdering, default, items, ' +
  'minimum, maximum; any other field is refused with 400 "Invalid JSON payload received. Unknown name ... Cannot ' +
  'find field"';
const GEMINI_UNKNOWN_FIELD =
  'Gemini (and its OpenAI-compatible endpoint) answers 400 "Invalid JSON payload received. Unknown name ' +
  '\\"additionalProperties\\" at \'tools[0].function_declarations[0].parameters\': Cannot find field." ' +
  '(https://github.com/chataize/generative-cs/issues/1, https://github.com/nanbingxyz/5ire/issues/42); ' +
  'the same for `examples` and `$defs` (https://github.com/datastax/astra-assistants-api/issues/73)';
const GEMINI_FORMAT =
  'https://ai.google.dev/api/caching#Schema: "Supported formats: for NUMBER type: float, double; for INTEGER type: ' +
  'int32, int64; for STRING type: enum, date-time"; other string formats are answered with 400 "format: only ' +
  "'enum' and 'date-time' are supported for STRING type\" (https://github.com/google-gemini/gemini-cli/issues/3178)";
const GEMINI_ENUM =
  'https://ai.google.dev/api/caching#Schema: enum is "Possible values of the element of Type.STRING with enum ' +
  'format"; enums of numbers are answered with 400 "function declaration enum only allowed for STRING type" ' +
  '(https://github.com/decolua/9router/pull/380)';
const GEMINI_FORMATS: ReadonlySet<unknown> = new Set(['date-time']);

const ANTHROPIC =
  'https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations: strict tool ' +
  'use does not support numerical constraints (minimum, maximum, multipleOf), string constraints (minLength, ' +
  'maxLength), array constraints beyond minItems of 0 or 1, or recursive schemas; string formats date-time, time, ' +
  'date, duration, email, hostname, uri, ipv4, ipv6, uuid are supported; regular expressions without ' +
  'backreferences, lookaround or word boundaries. Its OpenAI-compatible endpoint ignores `strict` ' +
  '(https://platform.claude.com/docs/en/cli-sdks-libraries/libraries/openai-sdk: "The strict parameter for ' +
  'function calling is ignored")';
const ANTHROPIC_FORMATS: ReadonlySet<unknown> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);
// Backreferences (\1, \k<name>), lookaround ((?=, (?!, (?<=, (?<!) and word boundaries (\b, \B).
const ANTHROPIC_UNSUPPORTED_REGEX = /\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/;

const LENIENT =
  'No constraint keyword at all, only what every profile above carries for every value: type, description, ' +
  'properties, required, items and string enums. Servers that compile schemas into grammars (llama.cpp, vLLM, ' +
  'Ollama) and gateways in front of other providers each accept a different part of the rest';

const always = (source: string): LeftOutRule => ({ source });
const numericEnum = (value: unknown): boolean => Array.isArray(value) && value.some((v) => typeof v !== 'string');

/**
 * Each profile's rules, as data; `applyProfile` is the one function that carries them out.
 *
 * @internal
 */
export const PROFILE_RULES: Readonly<Record<SchemaProfile, ProfileRules>> = {
  openai: { strictForm: false, leftOut: {} },
  'openai-strict': {
    strictForm: true,
    leftOut: {
      minLength: always(OPENAI_STRICT),
      maxLength: always(OPENAI_STRICT),
      uniqueItems: always(OPENAI_STRICT),
      examples: always(OPENAI_STRICT),
      default: always(OPENAI_STRICT),
      format: { when: (value) => !OPENAI_STRICT_FORMATS.has(value), source: OPENAI_STRICT },
    },
  },
  gemini: {
    strictForm: false,
    leftOut: {
      additionalProperties: always(GEMINI_UNKNOWN_FIELD),
      $ref: always(GEMINI_SCHEMA),
      examples: always(GEMINI_UNKNOWN_FIELD),
      exclusiveMinimum: always(GEMINI_SCHEMA),
      exclusiveMaximum: always(GEMINI_SCHEMA),
      uniqueItems: always(GEMINI_SCHEMA),
      enum: { when: numericEnum, source: GEMINI_ENUM },
      format: { when: (value) => !GEMINI_FORMATS.has(value), source: GEMINI_FORMAT },
    },
  },
  anthropic: {
    strictForm: false,
    leftOut: {
      $ref: always(ANTHROPIC),
      minimum: always(ANTHROPIC),
      maximum: always(ANTHROPIC),
      exclusiveMinimum: always(ANTHROPIC),
      exclusiveMaximum: always(ANTHROPIC),
      minLength: always(ANTHROPIC),
      maxLength: always(ANTHROPIC),
      minItems: { when: (value) => typeof value === 'number' && value > 1, source: ANTHROPIC },
      maxItems: always(ANTHROPIC),
      uniqueItems: always(ANTHROPIC),
      format: { when: (value) => !ANTHROPIC_FORMATS.has(value), source: ANTHROPIC },
      pattern: {
        when: (value) => typeof value === 'string' && ANTHROPIC_UNSUPPORTED_REGEX.test(value),
        source: ANTHROPIC,
      },
    },
  },
  lenient: {
    strictForm: false,
    leftOut: {
      additionalProperties: always(LENIENT),
      $ref: always(LENIENT),
      enum: { when: numericEnum, source: LENIENT },
      default: always(LENIENT),
      examples: always(LENIENT),
      minimum: always(LENIENT),
      maximum: always(LENIENT),
      exclusiveMinimum: always(LENIENT),
      exclusiveMaximum: always(LENIENT),
      minLength: always(LENIENT),
      maxLength: always(LENIENT),
      pattern: always(LENIENT),
      format: always(LENIENT),
      minItems: always(LENIENT),
      maxItems: always(LENIENT),
      uniqueItems: always(LENIENT),
    },
  },
};
