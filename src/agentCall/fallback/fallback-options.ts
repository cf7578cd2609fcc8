import type { FallbackEntry } from './fallback-entry';

/** The models the run may move to when its own fails. */
export type FallbackOptions = {
  /**
   * Models to move to, in order, when the model the run is on fails with a retryable error once the SDK's own
   * retries are spent (429, 408, 5xx, overloaded, a timeout, a connection failure, a stalled stream) before any of
   * its answer came in: the same request goes to the next entry (its `client` or the run's, its `wire` or the run's),
   * and the run stays there. A 400, 401, 403 or other 4xx never falls back. When the last entry fails too, its error
   * comes back. The model the run is on is kept in `state.model` / `state.fallbackIndex`. See `docs/fallback.md`.
   */
  fallback?: FallbackEntry[];
};
