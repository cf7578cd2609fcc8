import type { LLMClient } from '../llm/client';
import type { Wire } from '../llm/wire';

/**
 * One model a run may move to when the model it is on fails with a retryable error (see `runAgentLoop`'s
 * `fallback`).
 */
export type FallbackEntry = {
  /** The model name sent in the request body in place of `body.model`. */
  model: string;
  /** The openai SDK client its requests go through (another provider, another key); default the run's client. */
  client?: LLMClient;
  /** The API its requests go over; default the run's `wire`. */
  wire?: Wire;
};
