import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { PendingCall, RunState } from '../state/run-state';

/**
 * The agents a saved state has under way: its `children` with no pending call listed under them (a paused agent's
 * calls are listed in `pending`). A state saved after one of an agent's turns holds them.
 *
 * @internal
 */
export function runningChildren(
  children: Readonly<Record<string, RunState>> | undefined,
  pending: readonly PendingCall[],
): Map<string, RunState> {
  const running = new Map<string, RunState>();
  if (!children) return running;
  const paused = new Set<string>();
  for (const entry of pending) if (entry.agentPath?.length) paused.add(entry.agentPath[0]);
  for (const [callId, state] of Object.entries(children)) if (!paused.has(callId)) running.set(callId, state);
  return running;
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
 * their last turns, and, while it resumes from a pause, what of that pause none of them carries on (calls of its own
 * still listed, to be decided again; paused agents not started).
 *
 * @internal
 */
export function stateWithRunning(
  own: RunState,
  running: ReadonlyMap<string, RunState>,
  resumed: { pending: readonly PendingCall[]; children?: Readonly<Record<string, RunState>> } | undefined,
): RunState {
  const pending: PendingCall[] = [];
  const children: Record<string, RunState> = {};
  for (const entry of resumed?.pending ?? []) {
    const head = entry.agentPath?.[0];
    if (head !== undefined && running.has(head)) continue;
    pending.push(entry);
    if (head !== undefined && resumed?.children?.[head]) children[head] = resumed.children[head];
  }
  for (const [callId, state] of running) children[callId] = state;
  return { ...own, pending, children };
}
