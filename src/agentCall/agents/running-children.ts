import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { Decision, PendingCall, RunState } from '../state/run-state';

/**
 * The agents a saved state has under way: its `children` that are ({@link isUnderWay}). The others paused: their calls
 * are listed in `pending`. A state saved after one of an agent's turns holds them.
 *
 * @internal
 */
export function runningChildren(children: Readonly<Record<string, RunState>> | undefined): Map<string, RunState> {
  const running = new Map<string, RunState>();
  if (!children) return running;
  for (const [callId, state] of Object.entries(children)) if (isUnderWay(state)) running.set(callId, state);
  return running;
}

/**
 * Whether an agent's saved state is a turn to go on from, not a pause: nothing pending, or an agent of its own under
 * way (its calls pending then are those of its agents that paused beside it). Bounded by the depth of agents.
 *
 * @internal
 */
export function isUnderWay(state: RunState): boolean {
  if (!state.pending.length) return true;
  for (const child of Object.values(state.children ?? {})) if (isUnderWay(child)) return true;
  return false;
}

/**
 * The calls of the history's last assistant message when none of them is answered yet: the turn a state saved while
 * its agents ran stopped in. Its calls run again on resume (the journal answers the ones that finished), its agents
 * from their saved turns.
 *
 * @internal
 */
export function unansweredTurn(
  messages: readonly ChatCompletionMessageParam[],
): { calls: ChatCompletionMessageToolCall[]; snapshot: ChatCompletionMessageParam[] } | undefined {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant' || !last.tool_calls?.length) return undefined;
  const calls = last.tool_calls.filter((call): call is ChatCompletionMessageToolCall => call.type === 'function');
  return calls.length ? { calls, snapshot: messages.slice(0, -1) } : undefined;
}

/**
 * The state a run saves while its agents are under way: its own as it stands, the agents under way in `children` at
 * their last turns, the agents of the turn that paused already at their pause (their calls listed in `pending` under
 * their paths), and, while it resumes from a pause, what of that pause none of them carries on (calls of its own
 * still listed, to be decided again; paused agents not started).
 *
 * @internal
 */
export function stateWithRunning(
  own: RunState,
  running: ReadonlyMap<string, RunState>,
  resumed: { pending: readonly PendingCall[]; children?: Readonly<Record<string, RunState>> } | undefined,
  paused: ReadonlyMap<string, RunState> = new Map(),
): RunState {
  const pending: PendingCall[] = [];
  const children: Record<string, RunState> = {};
  for (const entry of resumed?.pending ?? []) {
    const head = entry.agentPath?.[0];
    if (head !== undefined && (running.has(head) || paused.has(head))) continue;
    pending.push(entry);
    if (head !== undefined && resumed?.children?.[head]) children[head] = resumed.children[head];
  }
  // An agent under way lists the calls of its own agents that paused beside it: they are listed here too.
  for (const agents of [paused, running]) {
    for (const [callId, state] of agents) {
      for (const entry of state.pending) pending.push({ ...entry, agentPath: [callId, ...(entry.agentPath ?? [])] });
      children[callId] = state;
    }
  }
  return { ...own, pending, children };
}

/**
 * The agents of a saved turn that had paused (in `children`, with calls listed in `pending` under their paths): each
 * resumes from its pause, with the decisions under its path (keys relative to it), so it pauses again where it stood
 * unless they decide its calls.
 *
 * @internal
 */
export function pausedChildren(
  children: Readonly<Record<string, RunState>> | undefined,
  pending: readonly PendingCall[],
  decisions: Readonly<Record<string, Decision>> | undefined,
): Map<string, { state: RunState; decisions: Record<string, Decision> }> {
  const resumes = new Map<string, { state: RunState; decisions: Record<string, Decision> }>();
  for (const entry of pending) {
    const head = entry.agentPath?.[0];
    const state = head === undefined ? undefined : children?.[head];
    if (head === undefined || state === undefined || resumes.has(head)) continue;
    const under: Record<string, Decision> = {};
    const prefix = `${head}/`;
    for (const [key, decision] of Object.entries(decisions ?? {}))
      if (key.startsWith(prefix) && typeof decision === 'object' && decision !== null)
        under[key.slice(prefix.length)] = decision;
    resumes.set(head, { state, decisions: under });
  }
  return resumes;
}
