/** Behaviour-altering defaults live in one place. */

/** Tool names the OpenAI API accepts; anything else is refused when the definition is built. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Longest raw arguments string a tool accepts before parsing (characters). */
export const DEFAULT_MAX_ARGS_LENGTH = 1_000_000;

/** Deepest nesting of arrays/objects a tool accepts in its arguments. */
export const DEFAULT_MAX_ARGS_DEPTH = 64;

/** Keys that could reach an object's prototype chain; dropped from every parsed argument object. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Model turns a run may take when the caller sets no `maxRunAgentTimes`. */
export const DEFAULT_MAX_RUN_AGENT_TIMES = 20;

/** Consecutive tool-only turns after which the next request forces `tool_choice: 'none'`. */
export const DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS = 5;
