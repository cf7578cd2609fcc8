import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import { asFunctionCall } from '../llm/response/function-calls';
import { getErrText } from '../text/error-text';
import { toolErrorText } from '../text/model-text';
import { normalizeToolResult } from '../toolCall/normalize-tool-result';
import type { RunToolResult, ToolExecuteResult, ToolInputAnswer, ToolInteractive } from '../toolCall/type';
import { rejectionResponse, unkeptResult, type ParsedCall } from './turn/approvals';
import { keptParams } from './state/kept-params';
import type { CallAnswer } from './turn/run-tool-calls';
import { checkDecisions, inputAnswerOf, isInputAnswer } from './state/check-decisions';
import type { RunEvents } from './events/observers';
import type { FallbackEntry } from './fallback/fallback-entry';
import { fallbackPosition } from './fallback/model-fallback';
import { answerCall } from './events/report-hooks';
import { RUN_STATE_VERSION, type Decision, type PendingCall, type RunState } from './state/run-state';
import { verifyRunState } from './state/run-state-signature';
import type { DurableState } from './state/run-state-snapshot';
import type { ChildrenInteractiveParams, ToolCallChildrenInteractive } from './state/run-result';
import type { StateOptions } from './state/state-options';
import { assertRunState, validateInteractiveParams } from './state/validate-run-state';

/**
 * Where a run resumes: a state and the decisions for its pending calls. There is one way in: the seed's
 * `childrenInteractiveParams` becomes, at the door, a state with one `interactive` pending entry.
 *
 * @internal
 */
export type ResumePoint = {
  state: RunState;
  decisions: Readonly<Record<string, Decision>> | undefined;
  /** Verified with `stateSecret`: its `caller` may stand in. */
  verified: boolean;
  /**
   * Came in through `childrenInteractiveParams`: the answer replaces the paused tool message as it was given (not
   * fitted, not `'none'`), it is not counted among the produced messages, and the state is new, so it is saved.
   */
  seed: boolean;
};

/**
 * The resume point of `props`, or none for a fresh run. Throws what the run must end with when the input is refused
 * (nothing of it is used then): a state checked in depth and, with `stateSecret`, its signature; or malformed
 * `childrenInteractiveParams`.
 *
 * @internal
 */
export function resumePoint(props: StateOptions, current: DurableState): ResumePoint | undefined {
  const saved = props.resumeFrom;
  if (saved !== undefined) {
    assertRunState(saved);
    checkDecisions(props.decisions);
    const verified = props.stateSecret !== undefined;
    if (verified) verifyRunState(saved, props.stateSecret!);
    return { state: saved, decisions: props.decisions, verified, seed: false };
  }
  const params = props.childrenInteractiveParams;
  if (!params) return undefined;
  validateInteractiveParams(params);
  const { toolCallId } = params.toolParams;
  return {
    state: seedState(params, current),
    // Without a handler, the seed's resume answered the paused call with nothing.
    decisions: props.handleInteractiveTool ? undefined : { [toolCallId]: { answer: { response: '' } } },
    verified: false,
    seed: true,
  };
}

/** The state a `childrenInteractiveParams` stands for: its history, and its paused call as the one pending entry. */
function seedState(params: ChildrenInteractiveParams, current: DurableState): RunState {
  const { memoryRequestMessages, toolCallId } = params.toolParams;
  const messages = memoryRequestMessages.slice();
  // A history saved before its tool message was written still needs exactly one answer for the call.
  if (!messages.some((m) => m.role === 'tool' && m.tool_call_id === toolCallId)) {
    messages.push({ role: 'tool', tool_call_id: toolCallId, content: '' });
  }
  const call = pausedCall(messages, toolCallId) ?? {
    id: toolCallId,
    type: 'function',
    function: { name: '', arguments: '' },
  };
  return {
    v: RUN_STATE_VERSION,
    runId: current.runId,
    messages,
    turn: current.turn,
    usage: { ...current.priorUsage },
    loopGuard: { ...current.loopGuard },
    pending: [{ kind: 'interactive', call, interactive: params.childrenResponse }],
  };
}

/** The call `toolCallId` as the history holds it (the first assistant message that made it). */
function pausedCall(
  messages: readonly ChatCompletionMessageParam[],
  toolCallId: string,
): ChatCompletionMessageToolCall | undefined {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const found = message.tool_calls?.find((c) => c.id === toolCallId);
    if (found) return asFunctionCall(found);
  }
  return undefined;
}

/**
 * The durable state a run resumes with from `saved`, already checked by `assertRunState` (which does not
 * require `usage` or `loopGuard`: missing, they start from zero). A `caller` given to this call wins over the
 * saved one, which only stands in when none was given and the state was `verified` with `stateSecret`: a state
 * from outside could carry any caller.
 *
 * @internal
 */
export function restoreDurableState(
  saved: RunState,
  current: DurableState,
  verified: boolean,
  fallback?: readonly FallbackEntry[],
): DurableState {
  const takeSavedCaller = verified && !current.hasCaller && 'caller' in saved;
  return {
    // With a `fallback` list, the run goes on on the model it was on (when this call's list still has it).
    ...(current.model !== undefined && fallback && fallbackPosition(saved, fallback, current.model)),
    runId: saved.runId,
    turn: saved.turn,
    priorUsage: { inputTokens: saved.usage?.inputTokens ?? 0, outputTokens: saved.usage?.outputTokens ?? 0 },
    loopGuard: { signature: saved.loopGuard?.signature ?? '', repeats: saved.loopGuard?.repeats ?? 0 },
    pending: saved.pending.slice(),
    ...(saved.spent !== undefined && { spent: { ...saved.spent } }),
    hasCaller: takeSavedCaller || current.hasCaller,
    caller: takeSavedCaller ? saved.caller : current.caller,
    // This run's own span is what a later resume continues, not the one the saved state came from.
    ...(current.traceparent !== undefined && { traceparent: current.traceparent }),
    ...(saved.foundTools !== undefined && { foundTools: saved.foundTools.slice() }),
    ...(saved.outputFailures !== undefined && { outputFailures: saved.outputFailures }),
    ...(saved.children !== undefined && { children: { ...saved.children } }),
  };
}

/** What to do with one pending call on resume. */
export type DecidedCall =
  /** Approved: run it now. */
  | {
      action: 'run';
      call: ChatCompletionMessageToolCall;
      params: unknown;
      /**
       * Parse it again rather than run it with `params`: an agent call run again to resume its agent, or a paused
       * call run again with a person's answer.
       */
      reparse?: boolean;
      /** The person's answer to what the call asked, and what it kept: it runs with them as `ctx.answer` / `ctx.resumeData`. */
      answered?: CallAnswer;
    }
  /** Rejected by the person: answer the model without running it. */
  | { action: 'reject'; call: ChatCompletionMessageToolCall; result: ToolExecuteResult }
  /** Answered: the decision's result is the call's result. */
  | { action: 'answer'; call: ChatCompletionMessageToolCall; result: ToolExecuteResult }
  /** A paused tool with no answer in `decisions`: ask `handleInteractiveTool`. */
  | { action: 'handle'; call: ChatCompletionMessageToolCall; interactive: ToolInteractive };

/**
 * Match every pending call with its decision, in call order; `undefined` when any call is still undecided (the
 * run then keeps waiting, and nothing runs). An `approval` entry takes `approve` (or an `answer` that stands in
 * for running it); an `interactive` entry takes an `answer` or a rejection, or is handed to
 * `handleInteractiveTool` when the caller gave one. A person's answer (`{ action, content? }`) runs either again.
 *
 * @internal
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
    if (decision && 'answer' in decision && isInputAnswer(decision.answer)) {
      planned.push(answeredCall(entry, inputAnswerOf(decision.answer)));
    } else if (decision && 'answer' in decision && decision.answer !== undefined) {
      planned.push({ action: 'answer', call, result: normalizeToolResult(decision.answer) });
    } else if (decision && 'approve' in decision && decision.approve === false) {
      const reason = typeof decision.reason === 'string' ? decision.reason : undefined;
      planned.push({ action: 'reject', call, result: { response: rejectionResponse(reason) } });
    } else if (entry.kind === 'approval' && decision && 'approve' in decision && decision.approve === true) {
      planned.push({ action: 'run', call, params: entry.params });
    } else if (entry.kind === 'interactive' && hasInteractiveHandler) {
      planned.push({ action: 'handle', call, interactive: entry.interactive });
    } else {
      return undefined;
    }
  }
  return planned;
}

/**
 * A pending call a person answered (`{ answer: { action, content? } }`): it runs again with the answer, an approval
 * with the params it kept, a paused call with its arguments parsed again and what it kept to go on.
 */
function answeredCall(entry: PendingCall, answer: ToolInputAnswer): DecidedCall {
  if (entry.kind === 'approval') return { action: 'run', call: entry.call, params: entry.params, answered: { answer } };
  const resumeData = entry.resumeData;
  return {
    action: 'run',
    call: entry.call,
    params: undefined,
    reparse: true,
    answered: { answer, ...(resumeData !== undefined && { resumeData }) },
  };
}

function decisionFor(decisions: Readonly<Record<string, Decision>> | undefined, id: string): Decision | undefined {
  if (!decisions || !Object.prototype.hasOwnProperty.call(decisions, id)) return undefined;
  const decision = decisions[id];
  return typeof decision === 'object' && decision !== null ? decision : undefined;
}

/** What applying decisions needs of the run: its history, its tools, and how a call's result is taken in. */
export type DecisionTarget = {
  messages: ChatCompletionMessageParam[];
  events: RunEvents;
  handleInteractiveTool: StateOptions['handleInteractiveTool'];
  /** Run the approved calls, with `snapshot` as the history they see and `parsed` their params; results in call order. */
  runTools(
    calls: ChatCompletionMessageToolCall[],
    snapshot: ChatCompletionMessageParam[],
    parsed: ReadonlyMap<ChatCompletionMessageToolCall, ParsedCall>,
    answers: ReadonlyMap<ChatCompletionMessageToolCall, CallAnswer>,
  ): Promise<RunToolResult[]>;
  /** Take a call's result into the run, its tool message over the placeholder at `at`. */
  settle(call: ChatCompletionMessageToolCall, result: RunToolResult, callCount: number, at?: number): Promise<void>;
};

/**
 * Answer each pending call as `plan` decided, in call order, each answer over its placeholder tool message; true
 * when an answer asked to stop. Approved calls run as they would have in their turn: seeing the history before
 * the assistant message that made them.
 *
 * @internal
 */
export async function applyDecisions(
  plan: readonly DecidedCall[],
  pending: readonly PendingCall[],
  target: DecisionTarget,
): Promise<boolean> {
  const { assistantIndex, toolIndex } = locatePending(target.messages, new Set(pending.map((p) => p.call.id)));
  const approved: ChatCompletionMessageToolCall[] = [];
  // An approved call runs with the params kept in the state (checked with it, signed with it), not parsed again.
  const parsed = new Map<ChatCompletionMessageToolCall, ParsedCall>();
  const answers = new Map<ChatCompletionMessageToolCall, CallAnswer>();
  for (const p of plan) {
    if (p.action !== 'run') continue;
    approved.push(p.call);
    if (!p.reparse) parsed.set(p.call, keptParams(p.params) ?? unkeptResult(p.call));
    if (p.answered) answers.set(p.call, p.answered);
  }
  const snapshot = assistantIndex >= 0 ? target.messages.slice(0, assistantIndex) : target.messages.slice();
  const results = approved.length ? await target.runTools(approved, snapshot, parsed, answers) : [];
  let next = 0;
  let stop = false;
  for (const decided of plan) {
    const call = decided.call;
    const result =
      decided.action === 'run'
        ? results[next++]
        : await answerCall(target.events, call, () => answerOf(decided, target));
    if (result.stop) stop = true;
    await target.settle(call, result, plan.length, toolIndex.get(call.id));
  }
  return stop;
}

function answerOf(decided: Exclude<DecidedCall, { action: 'run' }>, target: DecisionTarget) {
  if (decided.action !== 'handle') {
    return { ...decided.result, outcome: decided.action === 'reject' ? ('rejected' as const) : ('ok' as const) };
  }
  // The history as it stands, a copy: the handler must not edit the run's own.
  return runInteractiveHandler(target.handleInteractiveTool!, {
    childrenResponse: decided.interactive,
    toolParams: { memoryRequestMessages: target.messages.slice(), toolCallId: decided.call.id },
  });
}

/**
 * Where the pending calls of a paused run sit in its history: the index of the assistant message that made them
 * (-1 when not found) and the index of each call's placeholder tool message. Both are in the last turn, so the
 * search walks back from the end and stops at that assistant message: the cost does not grow with the history.
 */
function locatePending(
  messages: readonly ChatCompletionMessageParam[],
  ids: ReadonlySet<string>,
): { assistantIndex: number; toolIndex: Map<string, number> } {
  const toolIndex = new Map<string, number>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'tool') {
      if (ids.has(message.tool_call_id) && !toolIndex.has(message.tool_call_id)) toolIndex.set(message.tool_call_id, i);
      continue;
    }
    if (message.role === 'assistant' && message.tool_calls?.some((call) => ids.has(call.id))) {
      return { assistantIndex: i, toolIndex };
    }
  }
  return { assistantIndex: -1, toolIndex };
}

/** Call the resume handler; what it throws becomes the tool's answer, as for any tool. */
async function runInteractiveHandler(
  handle: (params: ChildrenInteractiveParams) => Promise<ToolExecuteResult>,
  params: ChildrenInteractiveParams,
): Promise<RunToolResult> {
  try {
    return { ...normalizeToolResult(await handle(params)), outcome: 'ok' };
  } catch (error) {
    return { response: toolErrorText(getErrText(error)), outcome: 'error', error };
  }
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
 * The `interactiveResponse` of a run paused by the call `toolCallId`; the history is filled in when the run ends.
 *
 * @internal
 */
export function pausedAt(interactive: ToolInteractive, toolCallId: string): ToolCallChildrenInteractive {
  return {
    type: 'toolChildrenInteractive',
    params: { childrenResponse: interactive, toolParams: { memoryRequestMessages: [], toolCallId } },
  };
}

/**
 * Tool-internal messages worth keeping: empty assistant texts are noise.
 *
 * @internal
 */
export function keepNonEmpty(messages: ChatCompletionMessageParam[] | undefined): ChatCompletionMessageParam[] {
  if (!messages?.length) return [];
  return messages.filter((m) => m.role !== 'assistant' || Boolean(m.content) || Boolean(m.tool_calls?.length));
}
