import type { ChildrenInteractiveParams, ToolExecuteResult } from '../index';
import type { Decision } from './types';

/** The tool message text of a rejected call. */
export function rejectionText(reason?: string): string {
  return `Tool call rejected by the user${reason ? `: ${reason}` : ''}`;
}

/** What a paused call answers once a person has decided. */
export function decisionResult(decision: Decision | undefined): ToolExecuteResult {
  if (!decision) return { response: '' };
  if ('answer' in decision) return decision.answer;
  if (!decision.approve) return { response: rejectionText(decision.reason) };
  return { response: 'Approved by the user' };
}

/** A resume handler for `runAgentLoop` that answers the paused call from `decisions`. */
export function answerFrom(
  decisions: Record<string, Decision>,
): (params: ChildrenInteractiveParams) => Promise<ToolExecuteResult> {
  return async (params) => decisionResult(decisions[params.toolParams.toolCallId]);
}
