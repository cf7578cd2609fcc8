import type { ChatCompletionMessageParam, Decision, RunState } from '../../index';
import { PAGE_TEXT_CHARS } from '../api';
import { callKey } from '../run-model';
import { nameText } from '../safe-text';
import type { PendingView } from '../types';

/** The pending calls of a state, as the page shows them. */
export function pendingViews(state: RunState): PendingView[] {
  return state.pending.map((pending) => ({
    callId: pending.call.id,
    key: callKey(pending.agentPath, pending.call.id),
    ...(pending.agentPath?.length
      ? { agentPath: [...pending.agentPath], agent: nameText(agentName(state, pending.agentPath)) }
      : {}),
    name: nameText(pending.call.function.name),
    kind: pending.kind,
    arguments: pending.call.function.arguments.slice(0, PAGE_TEXT_CHARS),
  }));
}

/**
 * The name of the agent at `path`: the tool its parent called, found in the parent's history (the root's, then each
 * agent's state in `children`).
 */
function agentName(state: RunState, path: readonly string[]): string {
  let run: RunState | undefined = state;
  let name = '';
  for (const id of path) {
    if (!run) return name;
    for (const message of run.messages)
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? [])
          if (call.id === id && call.type === 'function') name = call.function.name;
    run = run.children?.[id];
  }
  return name;
}

/** The text of each tool message of a history, by call id: what the model read of each call. */
export function readModelResponses(messages: ChatCompletionMessageParam[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const content = message.content;
    out.set(
      message.tool_call_id,
      typeof content === 'string' ? content : content.map((part) => ('text' in part ? part.text : '')).join(''),
    );
  }
  return out;
}

/** The pending calls with what the page decided for each so far. */
export function withDecided(pending: PendingView[], decided: Record<string, Decision>): PendingView[] {
  return pending.map((view) => {
    const decision = decided[view.key];
    if (decision === undefined) return view;
    return { ...view, decided: 'approve' in decision && decision.approve ? 'approved' : 'rejected' };
  });
}
