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

/** Default `maxAgentDepth`: how many agents deep (`agentPath.length`) agents may call agents. */
export const DEFAULT_MAX_AGENT_DEPTH = 4;

/** Consecutive tool-only turns after which the next request forces `tool_choice: 'none'`. */
export const DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS = 5;

/** Tool calls of one turn run at once when the caller sets no `toolConcurrency` (1: one after another, in order). */
export const DEFAULT_TOOL_CONCURRENCY = 1;

/** How often `isAborted` is polled while a request or a tool is in flight (ms). */
export const ABORT_POLL_MS = 50;

/** Longest error text handed to the model (characters); the rest is noise that costs tokens. */
export const MAX_ERROR_TEXT_LENGTH = 500;

/** Share of the usable context (`maxContext` minus reserved tokens) above which history is compressed. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.8;

/** Default tokens kept free for the model's answer: this share of `maxContext`… */
export const DEFAULT_RESERVED_CONTEXT_SHARE = 0.25;

/** …but never more than this many tokens. */
export const MAX_DEFAULT_RESERVED_TOKENS = 8000;

/** Share of the history limit that compression keeps verbatim as the most recent turns. */
export const COMPRESSION_KEEP_SHARE = 0.25;

/** Longest text of one message quoted in the request that summarises the history (characters). */
export const MAX_QUOTED_CHARS = 4000;

/** With compression on, one tool response may take at most this share of `maxContext`… */
export const MAX_TOOL_RESPONSE_CONTEXT_SHARE = 0.5;

/** …and is always allowed at least this many tokens, so a nearly full context still leaves it readable. */
export const MIN_TOOL_RESPONSE_TOKENS = 64;

/** Characters per token assumed when cutting text to a token budget (cautious: code and JSON run ~3). */
export const CUT_CHARS_PER_TOKEN = 3;

/** A too-large tool response is cut to this many times its token budget before the model summarises it. */
export const SUMMARY_INPUT_FACTOR = 8;

/** Tokens every message costs beyond its text (role, separators), as OpenAI's cookbook counts them. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Flat token guess for an image or audio part, which is billed by size, not text. */
export const MEDIA_PART_TOKENS = 256;

/** Most keys one object in a tool's arguments may have; a hostile object with more is refused before validation. */
export const DEFAULT_MAX_ARGS_KEYS = 1_000;

/**
 * Longest text the model reads from agentcall itself (tool-error, validation, not-found and parser-error text),
 * in characters. Tool results are not cut here: `maxToolResponseTokens` and compression handle them.
 */
export const DEFAULT_MAX_MODEL_TEXT_CHARS = 2_000;

/** Validation problems listed one per line before the rest are counted as "… and N more". */
export const DEFAULT_MAX_VALIDATION_LINES = 20;

/**
 * Most bytes one model response may accumulate (answer text, reasoning, tool calls, in UTF-8; not the SSE envelopes
 * around them) before the request is cut off with `ResponseTooLargeError`.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Longest single SSE line (one event's data) a streamed model response may send, in bytes. */
export const DEFAULT_MAX_SSE_LINE_BYTES = 2 * 1024 * 1024;

/** Tool calls of one model turn that are run; the calls past it each get a tool message saying they were not run. */
export const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 64;

/** Answers that fail the `output` schema a run sends feedback on before it ends with `stopReason: 'output_invalid'`. */
export const DEFAULT_OUTPUT_RETRIES = 2;

/** Most `path: message` lines one output feedback message (and `OutputValidationError`) lists; the rest are counted. */
export const MAX_OUTPUT_FEEDBACK_LINES = 20;

/**
 * Most characters of JSON one Responses reply may keep as items to send back (its reasoning items and hosted-tool
 * items together): each goes out again with every later request of the run, so an item that would take the reply
 * past it is left out of the history (its summary still reached `onReasoning`).
 */
export const MAX_KEPT_ITEMS_CHARS = 256 * 1024;
