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

/**
 * The name the queue has in BullMQ: `queueName` as its own hash tag (`{agentcall-runs}`), so every key BullMQ makes
 * for the queue (`bull:{agentcall-runs}:wait`, its jobs, their locks) hashes to one Redis Cluster slot, as BullMQ's
 * scripts need, and each queue to a slot of its own. A name that carries a hash tag already is kept as it is; one
 * that cannot be a tag (empty, or starting with `}`) is refused.
 */
export function bullQueueName(queueName: string): string {
  if (hashTag(queueName) !== undefined) return queueName;
  const tagged = `{${queueName}}`;
  if (hashTag(tagged) === undefined)
    throw new Error(`A queue name cannot be empty or start with '}' (its Redis Cluster hash tag): '${queueName}'`);
  return tagged;
}

/**
 * What Redis Cluster hashes of `key`: the text between its first `{` and the next `}` when there is some, as the
 * cluster specification defines it; `undefined` when the whole key is hashed.
 */
export function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}

/** The pub/sub channel cancel requests go out on. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:cancel`;
}

/** The pub/sub channel that names each run that starts waiting for a person or ends (a cancel goes out on its own). */
export function settledChannel(prefix: string): string {
  return `${prefix}:settled`;
}
