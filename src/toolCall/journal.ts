import type { ToolExecuteResult } from './type';

/**
 * Where a run records each executed tool call's result, so a resumed or retried run never executes it again.
 * Keys are `${runId}:${call.id}`; back it with anything durable (Redis, a database, a file).
 */
export type ToolJournal = {
  /** The result recorded for `key`, or `undefined` when the call has not been executed. */
  get(key: string): Promise<ToolExecuteResult | undefined>;
  /** Record the result of the call `key`; awaited before the run moves on. */
  set(key: string, result: ToolExecuteResult): Promise<void>;
};

/** The journal key (and `ctx.idempotencyKey`) of one call of one run. */
export function journalKey(runId: string, callId: string): string {
  return `${runId}:${callId}`;
}

/**
 * A {@link ToolJournal} kept in this process's memory: enough to survive resumes within one process (and for
 * tests); use a durable one to survive a crash.
 */
export class MemoryJournal implements ToolJournal {
  private readonly entries = new Map<string, ToolExecuteResult>();

  async get(key: string): Promise<ToolExecuteResult | undefined> {
    const found = this.entries.get(key);
    return found === undefined ? undefined : structuredClone(found);
  }

  async set(key: string, result: ToolExecuteResult): Promise<void> {
    this.entries.set(key, structuredClone(result));
  }

  /** How many calls are recorded. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * A new in-memory tool journal.
 *
 * @example
 * const journal = createMemoryJournal();
 * await runAgentLoop({ client, body, tools, runId: 'order-42', journal });
 */
export function createMemoryJournal(): MemoryJournal {
  return new MemoryJournal();
}
