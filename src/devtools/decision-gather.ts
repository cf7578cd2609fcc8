import type { Decision } from '../index';

/** What a decision of the page did: the calls still undecided, and every decision once none is. */
export type Gathered = { undecided: string[]; all?: Record<string, Decision> };

/**
 * The page's decisions of each waiting run, gathered until every pending call has one: a resume that left a call
 * undecided would change nothing, so a click would be lost. Kept per pause (the pending ids), so the decisions of
 * an earlier pause never mix with a later one's.
 */
export class DecisionGather {
  private readonly byRun = new Map<string, { pause: string; decisions: Record<string, Decision> }>();

  /** Add `decisions` to a run waiting on `pendingIds`; a decision for a call it does not wait on is refused. */
  add(runId: string, pendingIds: readonly string[], decisions: Record<string, Decision>): Gathered {
    const unknown = Object.keys(decisions).filter((id) => !pendingIds.includes(id));
    if (unknown.length) throw new Error(`This run is not waiting on ${unknown.join(', ').slice(0, 200)}.`);
    const pause = pendingIds.join('\n');
    let entry = this.byRun.get(runId);
    if (entry?.pause !== pause) this.byRun.set(runId, (entry = { pause, decisions: {} }));
    Object.assign(entry.decisions, decisions);
    const decided = entry.decisions;
    const undecided = pendingIds.filter((id) => decided[id] === undefined);
    if (undecided.length) return { undecided };
    this.byRun.delete(runId);
    // In pending order: the same decisions sent twice are the same request.
    return { undecided, all: Object.fromEntries(pendingIds.map((id) => [id, decided[id]])) };
  }

  /** The decisions made so far for a run waiting on `pendingIds`. */
  decided(runId: string, pendingIds: readonly string[]): Record<string, Decision> {
    const entry = this.byRun.get(runId);
    return entry?.pause === pendingIds.join('\n') ? entry.decisions : {};
  }

  /** Drop what was gathered for a run (it went on, or left memory). */
  forget(runId: string): void {
    this.byRun.delete(runId);
  }
}
