import type { RunState } from '../../src';

/**
 * Where the app keeps each run's latest state, saved at every checkpoint. In memory here; a real app puts the
 * same JSON in its database or Redis, so any instance can resume the run.
 */
export class RunStore {
  private readonly states = new Map<string, string>();

  /** Store a copy, as a database would: later changes to the object do not reach the stored state. */
  async save(state: RunState): Promise<void> {
    this.states.set(state.runId, JSON.stringify(state));
  }

  async load(runId: string): Promise<RunState | undefined> {
    const json = this.states.get(runId);
    return json === undefined ? undefined : (JSON.parse(json) as RunState);
  }
}
