import type { BudgetGate } from '../state/budget-types';

/**
 * Where a run sits in a tree of agents: the call ids from the root to it (`[]` for the root) and the names of the
 * agents on the way (for cycles). A nested run is handed its place by the agent call that starts it.
 *
 * @internal
 */
export type AgentPlace = {
  /** The call ids from the root to this run: its events, usages and pending calls carry it. */
  path: string[];
  /** The agents from the root to this run, in order: an agent met again is a cycle. */
  agents: string[];
};

/**
 * What a nested run is started with besides its props: its place and the name of its span.
 *
 * @internal
 */
export type NestedRun = AgentPlace & {
  /** `invoke_agent <name>`. */
  spanName: string;
  /** The budget of the run that calls the agent, when it (or an ancestor) has one: checked in the agent's run too. */
  budget?: BudgetGate;
};

/** The place of a root run. */
export const ROOT_PLACE: AgentPlace = { path: [], agents: [] };

/** The journal-key prefix of the calls a run at `path` makes: `call_1/call_7/` (none for the root). */
export function keyPrefix(path: readonly string[]): string {
  return path.length ? `${path.join('/')}/` : '';
}
