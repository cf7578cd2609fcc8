import { randomBytes } from 'node:crypto';
import type { RunState } from '../../src';

/**
 * Where the app keeps each run's latest state, saved at every checkpoint. In memory here; a real app puts the
 * same JSON in its database or Redis, so any instance can resume the run.
 */
export class RunStore {
  private readonly states = new Map<string, string>();

  /**
   * The `stateSecret` the runs sign their states with, so a resumed run may act for the caller its state names. This
   * store lives in memory, so a secret made at start is enough; an app whose states outlive the process (or are
   * shared by several) reads one from its secret store, e.g. `AGENT_STATE_SECRET`.
   */
  readonly stateSecret = process.env.AGENT_STATE_SECRET ?? randomBytes(32).toString('base64url');

  /** Store a copy, as a database would: later changes to the object do not reach the stored state. */
  async save(state: RunState): Promise<void> {
    this.states.set(state.runId, JSON.stringify(state));
  }

  async load(runId: string): Promise<RunState | undefined> {
    const json = this.states.get(runId);
    return json === undefined ? undefined : (JSON.parse(json) as RunState);
  }
}
