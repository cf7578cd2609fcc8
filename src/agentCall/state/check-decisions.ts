import type { ToolInputAnswer } from '../../toolCall/type';
import type { Decision } from './run-state';

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/**
 * Whether a decision's `answer` is a person's answer to what the tool asked (`{ action, content? }`: the call runs
 * again with it) rather than the call's result (`{ response, … }`: it stands for the call).
 *
 * @internal
 */
export function isInputAnswer(answer: unknown): answer is ToolInputAnswer {
  return typeof answer === 'object' && answer !== null && !('response' in answer) && 'action' in answer;
}

/**
 * A plain copy of a checked input answer: what the tool gets as `ctx.answer`, nothing else the caller put beside it.
 *
 * @internal
 */
export function inputAnswerOf(answer: ToolInputAnswer): ToolInputAnswer {
  return { action: answer.action, ...(answer.content !== undefined && { content: answer.content }) };
}

/**
 * Throws a `TypeError` naming the first malformed `answer` among `decisions` (keyed by call id): an object answer
 * without `response` is a person's answer, so its `action` must be `'accept'`, `'decline'` or `'cancel'` and its
 * `content`, when given, an object. Tool results, approvals and rejections are read as they always were.
 *
 * @internal
 */
export function checkDecisions(decisions: Readonly<Record<string, Decision>> | undefined): void {
  if (decisions === undefined) return;
  for (const [callId, decision] of Object.entries(decisions)) {
    if (typeof decision !== 'object' || decision === null || !('answer' in decision)) continue;
    const problem = answerProblem(decision.answer);
    if (problem) throw new TypeError(`decisions[${JSON.stringify(callId.slice(0, 200))}].answer ${problem}`);
  }
}

function answerProblem(answer: unknown): string | undefined {
  // Anything but an object without `response` is read as a tool result, as it always was.
  if (typeof answer !== 'object' || answer === null || 'response' in answer) return undefined;
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (!ACTIONS.has(action)) return "action must be 'accept', 'decline' or 'cancel'";
  if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content)))
    return 'content must be an object of the form values';
  return undefined;
}
