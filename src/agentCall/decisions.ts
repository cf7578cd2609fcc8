import type { ChatCompletionMessageToolCall } from '../llm/type';
import { normalizeToolResult } from '../toolCall/normalize-tool-result';
import type { ToolExecuteResult } from '../toolCall/type';
import { rejectionResponse } from './approvals';
import type { Decision, PendingCall } from './run-state';

/** What to do with one pending call on resume. */
export type DecidedCall =
  /** Approved: run it now. */
  | { action: 'run'; call: ChatCompletionMessageToolCall }
  /** Rejected by the person: answer the model without running it. */
  | { action: 'reject'; call: ChatCompletionMessageToolCall; result: ToolExecuteResult }
  /** Answered: the decision's result is the call's result. */
  | { action: 'answer'; call: ChatCompletionMessageToolCall; result: ToolExecuteResult }
  /** A paused tool with no answer in `decisions`: ask `handleInteractiveTool`. */
  | { action: 'handle'; pending: Extract<PendingCall, { kind: 'interactive' }> };

/**
 * Match every pending call with its decision, in call order; `undefined` when any call is still undecided (the
 * run then keeps waiting, and nothing runs). An `approval` entry takes `approve` (or an `answer` that stands in
 * for running it); an `interactive` entry takes an `answer` or a rejection, or is handed to
 * `handleInteractiveTool` when the caller gave one.
 */
export function planDecisions(
  pending: readonly PendingCall[],
  decisions: Readonly<Record<string, Decision>> | undefined,
  hasInteractiveHandler: boolean,
): DecidedCall[] | undefined {
  const planned: DecidedCall[] = [];
  for (const entry of pending) {
    const decision = decisionFor(decisions, entry.call.id);
    const call = entry.call;
    if (decision && 'answer' in decision && decision.answer !== undefined) {
      planned.push({ action: 'answer', call, result: normalizeToolResult(decision.answer) });
    } else if (decision && 'approve' in decision && decision.approve === false) {
      const reason = typeof decision.reason === 'string' ? decision.reason : undefined;
      planned.push({ action: 'reject', call, result: { response: rejectionResponse(reason) } });
    } else if (entry.kind === 'approval' && decision && 'approve' in decision && decision.approve === true) {
      planned.push({ action: 'run', call });
    } else if (entry.kind === 'interactive' && hasInteractiveHandler) {
      planned.push({ action: 'handle', pending: entry });
    } else {
      return undefined;
    }
  }
  return planned;
}

function decisionFor(decisions: Readonly<Record<string, Decision>> | undefined, id: string): Decision | undefined {
  if (!decisions || !Object.prototype.hasOwnProperty.call(decisions, id)) return undefined;
  const decision = decisions[id];
  return typeof decision === 'object' && decision !== null ? decision : undefined;
}
