import type { SchemaProfile } from '../../agentCall/state/output-types';

// Declared beside the loop's `output` options (the core cannot import this layer): one name for one idea.
export type { SchemaProfile };

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
