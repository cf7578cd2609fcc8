import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import type { RunToolResult } from '../toolCall/type';
import type { DecidedCall } from './decisions';
import { locatePending } from './pending-messages';
import { reportAnsweredCall } from './report-hooks';
import { pausedAt, restoreInteractiveHistory, runInteractiveHandler } from './resume-interactive';
import type { PendingCall, RunState } from './run-state';
import { assertRunState } from './validate-run-state';
import { verifyRunState } from './run-state-signature';
import type { DurableState } from './run-state-snapshot';
import type { RunAgentCallProps, ToolCallChildrenInteractive } from './type';

/**
 * The durable state a run resumes with from `saved`, already checked by `assertRunState` (which does not
 * require `usage` or `loopGuard`: missing, they start from zero). A `caller` given to this call wins over the
 * saved one, which only stands in when none was given and the state was `verified` with `stateSecret`: a state
 * from outside could carry any caller.
 *
 * @internal
 */
export function restoreDurableState(saved: RunState, current: DurableState, verified: boolean): DurableState {
  const takeSavedCaller = verified && !current.hasCaller && 'caller' in saved;
  return {
    runId: saved.runId,
    turn: saved.turn,
    priorUsage: { inputTokens: saved.usage?.inputTokens ?? 0, outputTokens: saved.usage?.outputTokens ?? 0 },
    loopGuard: { signature: saved.loopGuard?.signature ?? '', repeats: saved.loopGuard?.repeats ?? 0 },
    pending: saved.pending.slice(),
    hasCaller: takeSavedCaller || current.hasCaller,
    caller: takeSavedCaller ? saved.caller : current.caller,
  };
}

/**
 * Check a state from outside before anything of it is used: its shape in depth, then, with `stateSecret`, its
 * signature. Returns whether it was verified (its `caller` may then stand in); throws the error the run ends with.
 *
 * @internal
 */
export function checkSavedState(saved: RunState, stateSecret: string | undefined): boolean {
  assertRunState(saved);
  if (stateSecret === undefined) return false;
  verifyRunState(saved, stateSecret);
  return true;
}

/**
 * The `interactiveResponse` of a resumed run that must keep waiting: its first paused tool's question, or none
 * when only approvals wait (those are answered through `decisions`, not through a tool's question).
 *
 * @internal
 */
export function stillPaused(pending: readonly PendingCall[]): ToolCallChildrenInteractive | undefined {
  const first = pending.find((p) => p.kind === 'interactive');
  return first?.kind === 'interactive' ? pausedAt(first.interactive, first.call.id) : undefined;
}

/**
 * Ask the caller's `handleInteractiveTool` to answer a paused call the decisions left open, with the history as
 * it stands (a copy: the handler must not edit the run's own).
 *
 * @internal
 */
export function handlePausedCall(
  handle: NonNullable<RunAgentCallProps['handleInteractiveTool']>,
  pending: Extract<PendingCall, { kind: 'interactive' }>,
  messages: ChatCompletionMessageParam[],
): Promise<RunToolResult> {
  return runInteractiveHandler(handle, {
    childrenResponse: pending.interactive,
    toolParams: { memoryRequestMessages: messages.slice(), toolCallId: pending.call.id },
  });
}

/**
 * Where the answers to a resumed run's pending calls go, and what its approved calls see: the history before
 * the assistant message that made them, as they would have seen it had they run in that turn.
 *
 * @internal
 */
export function decidedTurn(
  messages: ChatCompletionMessageParam[],
  pending: readonly PendingCall[],
  plan: readonly DecidedCall[],
): {
  toolIndex: Map<string, number>;
  approved: ChatCompletionMessageToolCall[];
  snapshot: ChatCompletionMessageParam[];
} {
  const { assistantIndex, toolIndex } = locatePending(messages, new Set(pending.map((p) => p.call.id)));
  const approved = plan.flatMap((p) => (p.action === 'run' ? [p.call] : []));
  const snapshot = assistantIndex >= 0 ? messages.slice(0, assistantIndex) : messages.slice();
  return { toolIndex, approved, snapshot };
}

/**
 * The answer to the call a tool paused on, the saved history with that answer in it, and the call (absent when the
 * history does not hold it).
 *
 * @internal
 */
export type PausedToolAnswer = {
  result: RunToolResult;
  messages: ChatCompletionMessageParam[];
  call?: ChatCompletionMessageToolCall;
};

/**
 * Answer the call a tool paused on (`childrenInteractiveParams`): through the resume handler, or with nothing
 * without one. The call is reported to `onAfterToolCall` as soon as it is answered, like any other.
 *
 * @internal
 */
export async function answerPausedTool(props: RunAgentCallProps): Promise<PausedToolAnswer> {
  const params = props.childrenInteractiveParams!;
  const handle = props.handleInteractiveTool;
  const started = performance.now();
  const result: RunToolResult = handle ? await runInteractiveHandler(handle, params) : { response: '', outcome: 'ok' };
  const { messages, call } = restoreInteractiveHistory(params, result);
  if (call) reportAnsweredCall(props, call, result, performance.now() - started);
  return { result, messages, call };
}
