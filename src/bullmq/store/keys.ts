/**
 * Redis key names of one run. The `{runId}` hash tag keeps a run's keys in one Redis Cluster slot, so the
 * scripts that touch several of them stay atomic there too.
 */
export type RunKeys = {
  /** Hash: status, seq, state, body, meta and the outcome. */
  run: string;
  /** Hash: tool results and recorded model responses of the turn in flight. */
  journal: string;
  /** Stream: the run's events. */
  events: string;
  /**
   * List: ids of the events appended on their own since the run's last journal write or checkpoint. They tell of
   * what no store write holds yet, so a retried attempt, which repeats it, deletes them.
   */
  provisional: string;
};

/** The keys of `runId` under `prefix`. */
export function runKeys(prefix: string, runId: string): RunKeys {
  const base = `${prefix}:{${runId}}`;
  return {
    run: `${base}:run`,
    journal: `${base}:journal`,
    events: `${base}:events`,
    provisional: `${base}:provisional`,
  };
}

/** The pub/sub channel cancel requests go out on. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:cancel`;
}

/** The pub/sub channel that names each run that starts waiting for a person or ends (a cancel goes out on its own). */
export function settledChannel(prefix: string): string {
  return `${prefix}:settled`;
}
