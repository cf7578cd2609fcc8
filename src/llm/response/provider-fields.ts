/**
 * What OpenAI-compatible endpoints add to the OpenAI wire format, read in one place: the reasoning fields, fields
 * a provider puts on a tool call and expects back, and usage outside `usage`.
 */

/** The reasoning fields a delta or message may carry, in the order they are read. */
export const REASONING_FIELDS = ['reasoning_content', 'reasoning'] as const;

/** A reasoning field: `reasoning_content` (DeepSeek, llama.cpp, vLLM before 0.11) or `reasoning` (vLLM, Ollama, Groq, OpenRouter). */
export type ReasoningField = (typeof REASONING_FIELDS)[number];

/**
 * The reasoning text of a delta or a message and the field it came in. Some servers send the same text in both
 * fields during a rename: the first non-empty one counts, so it is not reported twice.
 */
export function reasoningOf(part: object): { field: ReasoningField; text: string } | undefined {
  for (const field of REASONING_FIELDS) {
    const text = (part as Record<string, unknown>)[field];
    if (typeof text === 'string' && text) return { field, text };
  }
  return undefined;
}

/** OpenRouter's `reasoning_details` of a delta or a message (signed or encrypted reasoning it wants back). */
export function reasoningDetailsOf(part: object): Record<string, unknown>[] | undefined {
  const details = (part as { reasoning_details?: unknown }).reasoning_details;
  return Array.isArray(details) ? details.filter(isPlainObject) : undefined;
}

/**
 * Adds streamed `reasoning_details` entries to those received so far. An entry with the `index` and `type` of the
 * last one continues it (its `text`, `summary` and `data` are appended, its other fields replace); any other entry
 * is new.
 */
export function appendReasoningDetails(into: Record<string, unknown>[], entries: Record<string, unknown>[]): void {
  for (const entry of entries) {
    const last = into.at(-1);
    if (last && entry.index !== undefined && last.index === entry.index && last.type === entry.type) {
      for (const [key, value] of Object.entries(entry)) {
        if (UNSAFE_KEYS.has(key)) continue;
        const previous = last[key];
        last[key] =
          STREAMED_TEXT_KEYS.has(key) && typeof value === 'string' && typeof previous === 'string'
            ? previous + value
            : value;
      }
    } else {
      into.push(copyFields(entry, NO_KEYS));
    }
  }
}

/** Fields of a `reasoning_details` entry that stream in pieces. */
const STREAMED_TEXT_KEYS = new Set(['text', 'summary', 'data']);
/** Keys of a tool call that agentcall itself assembles; any other key is a provider's and is kept. */
const TOOL_CALL_KEYS = new Set(['index', 'id', 'type', 'function', 'custom']);
const NO_KEYS = new Set<string>();
/** Keys never copied from a provider's JSON onto an object agentcall keeps: they would reach its prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Copies the fields a provider added to a tool-call delta (Gemini's `extra_content.google.thought_signature`)
 * onto the assembled call, so they go back with it as received. Objects merge, so a signature sent in a delta
 * of its own joins the call it belongs to. Returns what was copied as JSON text, to be counted against the
 * response's size cap (`''` when the delta had nothing of the provider's, the usual case).
 */
export function keepToolCallFields(call: object, delta: object): string {
  let kept = '';
  // for…in rather than Object.entries: this runs on every streamed argument fragment.
  for (const key in delta) {
    if (TOOL_CALL_KEYS.has(key) || UNSAFE_KEYS.has(key) || !Object.prototype.hasOwnProperty.call(delta, key)) continue;
    const value: unknown = (delta as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    mergeField(call as Record<string, unknown>, key, value);
    kept += key + (JSON.stringify(value) ?? '');
  }
  return kept;
}

function mergeField(target: Record<string, unknown>, key: string, value: unknown): void {
  const current = target[key];
  if (isPlainObject(current) && isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(k)) mergeField(current, k, v);
  } else {
    target[key] = isPlainObject(value) ? copyFields(value, NO_KEYS) : value;
  }
}

function copyFields(source: Record<string, unknown>, skip: Set<string>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source))
    if (!skip.has(key) && !UNSAFE_KEYS.has(key)) mergeField(copy, key, value);
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A chunk's or completion's usage: `usage`, else Groq's `x_groq.usage`. */
export function usageOf(body: object): unknown {
  const { usage, x_groq } = body as { usage?: unknown; x_groq?: { usage?: unknown } | null };
  return usage ?? x_groq?.usage;
}
