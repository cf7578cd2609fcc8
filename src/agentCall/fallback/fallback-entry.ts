import type { LLMClient } from '../../llm/client';
import type { Wire } from '../../llm/wires/wire';

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
  /**
   * Headers sent with this entry's requests. An entry with its own `client` gets these and nothing of the run's
   * `requestOptions.headers` (they hold the primary's credentials: `Authorization`, `api-key`, gateway keys) unless
   * `sharedHeaders` names them; an entry on the run's client gets the run's headers, then these.
   */
  headers?: Record<string, string>;
  /**
   * Names of the run's `requestOptions.headers` (any case) that an entry with its own `client` is sent too: a
   * trace or tenant header the app means every provider to see. Never needed for an entry on the run's client.
   */
  sharedHeaders?: readonly string[];
};
