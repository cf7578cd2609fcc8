import { randomUUID } from 'node:crypto';
import type { ChatCompletionMessageParam } from '../../llm/type';
import { RUN_STATE_VERSION, type PendingCall, type RunSpent, type RunState } from './run-state';
import type { StateOptions } from './state-options';

/**
 * What of a live run a {@link RunState} carries besides its history: the loop owns and updates it, a snapshot
 * copies it out, and a restore builds it from a saved state.
 *
 * @internal
 */
export type DurableState = {
  runId: string;
  /** Model requests across resumes. */
  turn: number;
  /** Main request tokens of the runs before this resume; this run's own are added when a snapshot is taken. */
  priorUsage: RunState['usage'];
  loopGuard: RunState['loopGuard'];
  pending: PendingCall[];
  /** Whether a `caller` was given at all: one given as `undefined` still wins over a saved one on resume. */
  hasCaller: boolean;
  caller: unknown;
  /** The trace context of this run's span, when it is traced: what a resumed run continues. */
  traceparent?: string;
  /** What a budget counts besides `usage`; the budget's meter updates it in place. */
  spent?: RunSpent;
  /** With a `fallback` list: the model the run is on. */
  model?: string;
  /** With a `fallback` list: the index of the entry the run is on; absent on the primary. */
  fallbackIndex?: number;
  /** The deferred tools found so far, in the order found; set once the first is found. */
  foundTools?: string[];
  /** Final answers that failed `output`, across resumes. */
  outputFailures?: number;
  /** The states of the agents paused or under way, by call id. */
  children?: Record<string, RunState>;
};

/**
 * The durable state of a run that starts fresh (a `resumeFrom` then replaces it): the caller's `runId` or a new
 * one, its `caller` when one was given, the model it starts on when it may move (a `fallback` list), and the trace
 * context of its span.
 *
 * @internal
 */
export function newDurableState(
  props: Pick<StateOptions, 'runId' | 'caller'>,
  model: string | undefined,
  traceparent: string | undefined,
): DurableState {
  return {
    ...(traceparent !== undefined && { traceparent }),
    runId: props.runId ?? randomUUID(),
    turn: 0,
    priorUsage: { inputTokens: 0, outputTokens: 0 },
    loopGuard: { signature: '', repeats: 0 },
    pending: [],
    hasCaller: 'caller' in props,
    caller: props.caller,
    ...(model !== undefined ? { model } : {}),
  };
}

/**
 * The run state now. `copy` detaches it from the live history, for a checkpoint the run goes on after; the state
 * a finished run hands back can share it.
 *
 * @internal
 */
export function snapshotRunState(
  durable: DurableState,
  messages: ChatCompletionMessageParam[],
  inputTokens: number,
  outputTokens: number,
  copy: boolean,
): RunState {
  return {
    v: RUN_STATE_VERSION,
    runId: durable.runId,
    messages: copy ? messages.slice() : messages,
    turn: durable.turn,
    usage: {
      inputTokens: durable.priorUsage.inputTokens + inputTokens,
      outputTokens: durable.priorUsage.outputTokens + outputTokens,
    },
    ...(durable.spent !== undefined && { spent: { ...durable.spent } }),
    loopGuard: { ...durable.loopGuard },
    pending: durable.pending.slice(),
    ...(durable.hasCaller ? { caller: durable.caller } : {}),
    ...(durable.traceparent !== undefined && { traceparent: durable.traceparent }),
    ...(durable.model !== undefined && { model: durable.model }),
    ...(durable.fallbackIndex !== undefined && { fallbackIndex: durable.fallbackIndex }),
    ...(durable.foundTools?.length ? { foundTools: durable.foundTools.slice() } : {}),
    ...(durable.outputFailures !== undefined && { outputFailures: durable.outputFailures }),
    ...(durable.children !== undefined && { children: { ...durable.children } }),
  };
}

/**
 * Hand a state to `onCheckpoint`. What it throws or rejects with is returned, not thrown: the run ends with it as
 * its error and still hands back its messages and state. A rejection with no reason still needs an error.
 *
 * @internal
 */
export async function saveCheckpoint(
  save: NonNullable<StateOptions['onCheckpoint']>,
  state: RunState,
): Promise<{ error: unknown } | undefined> {
  try {
    await save(state);
    return undefined;
  } catch (error) {
    return { error: error ?? new Error('onCheckpoint rejected') };
  }
}
