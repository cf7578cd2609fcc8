import type { ToolExecuteResult } from '../../toolCall/type';
import type { ChildrenInteractiveParams } from './run-result';
import type { Decision, RunState } from './run-state';

/** The run's options for its state: who it acts for, where it resumes from, how it is signed and saved. */
export type StateOptions = {
  /**
   * Who the run acts for (a user, a tenant, auth claims): every tool gets it as `ctx.caller` (`@Ctx()` included).
   * It is never sent to the model, so the model can neither see nor forge it.
   */
  caller?: unknown;
  /** The run's id (default: a random UUID); ignored when resuming, where the state's id is kept. */
  runId?: string;
  /**
   * Continue a run from a state a previous call returned (or `onCheckpoint` saved), in this process or another.
   * Its history replaces `body.messages`; turns, usage and the loop guard keep counting. A state of an unknown
   * version ends the run at once with `stopReason: 'error'` and a `RunStateVersionError`; a malformed one (checked in
   * depth: types, counts, pending calls against the history) with an `InvalidRunStateError`. Nothing runs then.
   */
  resumeFrom?: RunState;
  /**
   * Sign every state the run returns or checkpoints (`state.signature`, an HMAC-SHA256) and refuse a `resumeFrom`
   * this secret did not sign (`RunStateSignatureError`, nothing runs). A verified state's `caller` stands in when
   * this call gives none; an unverified one's never does. Use a long random value kept server-side.
   */
  stateSecret?: string;
  /** The answers to the pending calls of `resumeFrom`, keyed by tool call id; a call left undecided keeps the run waiting. */
  decisions?: Record<string, Decision>;
  /**
   * Save the run's state: awaited after each turn's tool messages are appended and once at the end. A rejection
   * ends the run with `stopReason: 'error'` and that error.
   */
  onCheckpoint?: (state: RunState) => void | Promise<void>;
  /** Resume a paused run: the `params` of a previous `interactiveResponse`. */
  childrenInteractiveParams?: ChildrenInteractiveParams;
  /** Finish the paused tool with the user's answer; its `response` replaces the paused tool message. */
  handleInteractiveTool?: (params: ChildrenInteractiveParams) => Promise<ToolExecuteResult>;
};
