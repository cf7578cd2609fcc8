import { isDeepStrictEqual } from 'node:util';
import type { Decision, RunState } from './types';

/** What a run's gathered decisions become with more: all of them, and the pending calls still without one. */
export type MergedDecisions = { merged: Record<string, Decision>; undecided: string[] };

/**
 * Merge `given` into the decisions a waiting run gathered so far (a later decision for a call replaces an earlier
 * one). `merged` lists the pending calls' decisions in call order, the same text whatever order they came in.
 */
export function mergeDecisions(
  pending: RunState['pending'],
  gathered: Record<string, Decision> | undefined,
  given: Record<string, Decision>,
): MergedDecisions {
  const all: Record<string, Decision | undefined> = { ...gathered, ...given };
  const merged: Record<string, Decision> = {};
  const undecided: string[] = [];
  for (const id of pending.map(decisionKey)) {
    const decision = all[id];
    if (decision === undefined) undecided.push(id);
    else merged[id] = decision;
  }
  return { merged, undecided };
}

/** Whether each of `given` is the decision the run was queued with: the same request sent again. */
export function repeatsDecisions(queued: Record<string, Decision> | undefined, given: Record<string, Decision>) {
  return queued !== undefined && Object.entries(given).every(([id, d]) => isDeepStrictEqual(queued[id], d));
}

/** The key a pending call is decided by: its call id, after the path of the agent that made it (`call_1/c1`). */
export function decisionKey(pending: RunState['pending'][number]): string {
  return pending.agentPath?.length ? [...pending.agentPath, pending.call.id].join('/') : pending.call.id;
}
