import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../../llm/type';
import type { Decision, PendingCall, RunState } from '../state/run-state';
import type { ChildResume } from './agent-nest';
import { isUnderWay } from './running-children';

/** The pending calls and decisions a resume plans with, the nested ones folded into their agent calls. */
export type FoldedPending = {
  pending: PendingCall[];
  decisions: Record<string, Decision> | undefined;
  /** The agent calls to run again, each with the state and decisions its agent resumes from. */
  children: Map<string, ChildResume>;
};

/**
 * Fold the pending calls agents made into the calls that started those agents: each agent call becomes one approval
 * entry, approved when every pending call under it has a decision keyed by its whole path
 * (`[...agentPath, call.id].join('/')`); a bare call id decides nothing nested. Each agent gets only the decisions
 * under its own path, re-keyed relative to it. An agent saved under way (in `children` with nothing pending, or with
 * an agent of its own under way) becomes an approved entry that resumes it with the decisions there are. The run's
 * own entries and decisions pass as they are.
 *
 * @internal
 */
export function foldNestedPending(
  pending: readonly PendingCall[],
  decisions: Readonly<Record<string, Decision>> | undefined,
  messages: readonly ChatCompletionMessageParam[],
  children: Readonly<Record<string, RunState>> | undefined,
): FoldedPending {
  if (children === undefined && !pending.some((entry) => entry.agentPath?.length)) {
    return { pending: pending.slice(), decisions: decisions && { ...decisions }, children: new Map() };
  }
  const own: Record<string, Decision> = {};
  const folded: PendingCall[] = [];
  const groups = new Map<string, { decided: boolean; decisions: Record<string, Decision> }>();
  for (const entry of pending) {
    const path = entry.agentPath;
    if (!path?.length) {
      folded.push(entry);
      const decision = decisionAt(decisions, entry.call.id);
      if (decision) own[entry.call.id] = decision;
      continue;
    }
    const head = path[0];
    let group = groups.get(head);
    if (!group) {
      group = { decided: true, decisions: {} };
      groups.set(head, group);
      const call = callOf(messages, head);
      if (call) folded.push({ kind: 'approval', call, params: undefined });
    }
    const key = [...path, entry.call.id].join('/');
    const decision = decisionAt(decisions, key);
    if (decision) group.decisions[key.slice(head.length + 1)] = decision;
    else group.decided = false;
  }
  const resumes = new Map<string, ChildResume>();
  // An agent saved under way (no pending call of its own) goes on without a decision, from its last turn.
  for (const [callId, state] of Object.entries(children ?? {})) {
    if (groups.has(callId)) continue;
    const call = callOf(messages, callId);
    if (!call) continue;
    folded.push({ kind: 'approval', call, params: undefined });
    own[callId] = { approve: true };
    resumes.set(callId, { state, decisions: {} });
  }
  for (const [callId, group] of groups) {
    const state = children?.[callId];
    // An agent under way goes on with what is decided: the calls of its agents still undecided stay paused.
    if (state === undefined || (!group.decided && !isUnderWay(state))) continue;
    own[callId] = { approve: true };
    resumes.set(callId, { state, decisions: group.decisions });
  }
  return { pending: folded, decisions: own, children: resumes };
}

function decisionAt(decisions: Readonly<Record<string, Decision>> | undefined, key: string): Decision | undefined {
  if (!decisions || !Object.prototype.hasOwnProperty.call(decisions, key)) return undefined;
  const decision = decisions[key];
  return typeof decision === 'object' && decision !== null ? decision : undefined;
}

/** The call `id` as the history's last assistant message holds it. */
function callOf(
  messages: readonly ChatCompletionMessageParam[],
  id: string,
): ChatCompletionMessageToolCall | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== 'assistant') continue;
    const call = message.tool_calls?.find((c) => c.id === id);
    return call?.type === 'function' ? call : undefined;
  }
  return undefined;
}

/**
 * Take an agent's pause into its parent's state: the agent's pending calls join the parent's, each with the path
 * from the parent (`callId` first), and its state rides in `children`.
 *
 * @internal
 */
export function adoptPausedAgent(
  durable: { pending: PendingCall[]; children?: Record<string, RunState> },
  callId: string,
  state: RunState,
): void {
  for (const entry of state.pending)
    durable.pending.push({ ...entry, agentPath: [callId, ...(entry.agentPath ?? [])] });
  (durable.children ??= {})[callId] = state;
}
