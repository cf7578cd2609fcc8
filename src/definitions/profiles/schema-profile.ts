/**
 * The JSON Schema dialect a tool's parameters are written in, for the endpoint that will read them.
 *
 * - `'openai'` (default): the full schema agentcall builds, every constraint as a JSON Schema keyword.
 * - `'openai-strict'`: OpenAI structured outputs (`strict: true`): every property required, optional ones
 *   nullable, keywords strict mode refuses left out. `{ strict: true }` with `'openai'` gives the same schema.
 * - `'gemini'`: the OpenAPI 3.0 subset Gemini's function declarations accept (also behind its OpenAI-compatible
 *   endpoint): no `additionalProperties`, `$ref`, `examples`, exclusive bounds, `uniqueItems`, non-string enums.
 * - `'anthropic'`: the subset Anthropic's strict tool use accepts: no numeric, length or item-count bounds.
 * - `'lenient'`: types, properties, `required`, array items and string enums only, for OpenAI-compatible servers
 *   of unknown strictness.
 *
 * Validation is the same for every profile: a keyword a profile cannot carry is left out of its schema, stated in
 * the field's description instead, and listed by `schemaReport`.
 */
export type SchemaProfile = 'openai' | 'openai-strict' | 'gemini' | 'anthropic' | 'lenient';

/** Every schema profile, in the order reports list them. */
export const SCHEMA_PROFILES: readonly SchemaProfile[] = ['openai', 'openai-strict', 'gemini', 'anthropic', 'lenient'];

/**
 * The profile a tool's schema is built for: `strict` (the tool's own, else the `toolsFrom` default, else `true`
 * for `'openai-strict'`) picks between the two OpenAI profiles; the other profiles have no strict form, since
 * neither Gemini's nor Anthropic's OpenAI-compatible endpoint enforces `strict`.
 *
 * @internal
 */
export function resolveProfile(
  profile: SchemaProfile | undefined,
  toolStrict: boolean | undefined,
  defaultStrict: boolean | undefined,
): SchemaProfile {
  if (profile !== undefined && profile !== 'openai' && profile !== 'openai-strict') return profile;
  const strict = toolStrict ?? defaultStrict ?? profile === 'openai-strict';
  return strict ? 'openai-strict' : 'openai';
}
