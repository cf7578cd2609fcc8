import type { ChatCompletionMessageParam, Decision, RunState } from '../../index';
import { PAGE_TEXT_CHARS } from '../api';
import { nameText } from '../safe-text';
import type { PendingView } from '../types';

/** The pending calls of a state, as the page shows them. */
export function pendingViews(state: RunState): PendingView[] {
  return state.pending.map((pending) => ({
    callId: pending.call.id,
    name: nameText(pending.call.function.name),
    kind: pending.kind,
    arguments: pending.call.function.arguments.slice(0, PAGE_TEXT_CHARS),
  }));
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
    const decision = decided[view.callId];
    if (decision === undefined) return view;
    return { ...view, decided: 'approve' in decision && decision.approve ? 'approved' : 'rejected' };
  });
}
