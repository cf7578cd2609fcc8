import type { RunStore } from './store/run-store';
import type { RunsConnection } from './types';

/** Options of `new AgentRuns(...)`. */
export type AgentRunsOptions = {
  connection: RunsConnection;
  /**
   * Queue name (default `'agentcall-runs'`). BullMQ knows the queue as its hash tag, `{agentcall-runs}` (keys
   * `bull:{agentcall-runs}:…`), so its keys share one Redis Cluster slot; a name with a hash tag of its own is kept.
   */
  queueName?: string;
  /**
   * Model turns one job runs before it hands the run back to the end of the queue, behind the jobs waiting there
   * (default 25). Every turn is checkpointed either way; this is what keeps long runs from starving new ones.
   */
  turnsPerJob?: number;
  /** Milliseconds one job runs before it hands the run back at its next checkpoint (default 10,000). */
  jobSliceMs?: number;
  /**
   * Prefix of the run keys in Redis (default `'agentcall'`): `${prefix}:{runId}:run|journal|events` and the
   * `${prefix}:cancel` channel. BullMQ's own keys (the jobs) stay under BullMQ's `bull:{${queueName}}:`. Keep braces
   * out of it: a hash tag in the prefix would put every run in the one Redis Cluster slot it names.
   */
  prefix?: string;
  /**
   * Where runs are kept (default: a `RedisRunStore` on `connection` with `prefix` and the TTL and event options,
   * which are then ignored). The jobs are BullMQ's, on `connection`, whatever the store.
   */
  store?: RunStore;
  /**
   * Secret for resume tokens (the same in every process): `decide` then needs the token of the waiting run, which
   * `runs.resumeToken(runId)` gives. Without it, `decide` refuses (`ResumeTokenError`, `unconfigured`) unless
   * `allowDecideWithoutToken` is set.
   */
  secret?: string;
  /**
   * Let `decide` resume a run from its id alone when there is no `secret` (default false): for an app whose own
   * authorization in front of `decide` is all the protection it wants.
   */
  allowDecideWithoutToken?: boolean;
  /** Seconds a finished run (state, journal, events) is kept before Redis deletes it (default 7 days). */
  finishedTtlSeconds?: number;
  /** Seconds a run waiting for a person is kept before Redis deletes it (default 7 days); a decision keeps it. */
  waitingTtlSeconds?: number;
  /** Entries a run's event stream keeps, approximately (Redis `MAXLEN ~`, default 10,000): older ones are trimmed. */
  maxEvents?: number;
  /** Bytes of a start's `body` and `meta`, as JSON (default 4 MiB): a larger start is a `RunStartTooLargeError`. */
  maxStartBytes?: number;
  /** BullMQ attempts of a job whose model request failed with a retryable error (default 5). */
  attempts?: number;
  /** First retry delay in ms, doubled per attempt (default 1000). */
  backoffMs?: number;
};
