import type { LLMRequestBody, ToolParamEvent } from '../../llm/response/response-types';
import type { ChatCompletionMessageToolCall, UsageItem } from '../../llm/type';
import type { PendingCall, RunState } from '../state/run-state';
import type { AfterToolCallEvent, RequestEndEvent, ToolProgressEvent } from './event-types';
import type { RunAgentResponse } from '../state/run-result';

/**
 * What the loop reports as a run goes, by event name: the one vocabulary user hooks, tracing and the queue's
 * recorder all observe.
 *
 * @internal
 */
export type RunEventMap = {
  /**
   * A main model request is about to be sent; `provider` when it goes to another endpoint than the run's client (a
   * fallback entry's own client).
   */
  requestStart: {
    model: string;
    provider?: string;
    /** The request's body as the run sends it (before the wire translates it): what the devtools page shows. */
    body?: LLMRequestBody;
  };
  /** A main model request ended, whatever its outcome (its first chunk's time included). */
  requestEnd: RequestEndEvent;
  /** An answer delta of the request in flight. */
  text: { text: string };
  /** A reasoning delta of the request in flight. */
  reasoning: { text: string };
  /** The model opened a tool call (its id is final). */
  toolCall: { call: ChatCompletionMessageToolCall };
  /** A delta of a tool call's arguments. */
  toolParam: ToolParamEvent;
  /** A call's work starts: its tool, the resume handler, or its answer without running. */
  toolStart: { call: ChatCompletionMessageToolCall };
  /** A call has its result (the tool's own text, before any compression). */
  toolEnd: AfterToolCallEvent;
  /** A running tool reported how far it has got (`ctx.progress`). */
  toolProgress: ToolProgressEvent;
  /** A call's text is final, as the model reads it (after any compression). */
  toolSettled: { call: ChatCompletionMessageToolCall; modelText: string };
  /** Billable items, as they happen. */
  usage: UsageItem[];
  /** A state was saved by `onCheckpoint`. */
  checkpoint: RunState;
  /** The run stops to wait for a person. */
  pause: { pending: readonly PendingCall[] };
  /** The run's result, before it is handed back. */
  runEnd: RunAgentResponse;
};

/** The name of one run event. */
export type RunEventName = keyof RunEventMap;

/** What an observer may run work inside: the whole run, the model request in flight, or one call's work. */
export type RunScope = { kind: 'run' } | { kind: 'request' } | { kind: 'tool'; call: ChatCompletionMessageToolCall };

/**
 * One observer of a run: any of the events, each optional, plus `within`, which runs a piece of the run's work
 * inside the observer's context (tracing makes its span active there). An observer observes: what it throws or
 * rejects with goes to `onHookError`, and the run goes on as if it were absent.
 *
 * @internal
 */
export type RunObserver = { [K in RunEventName]?: (event: RunEventMap[K]) => unknown } & {
  /** How `onHookError` names this observer's failures (`<name>.<event>`), unless `hookNames` names the event. */
  name: string;
  /** The hook name reported for an event (the user's hooks keep their public names). */
  hookNames?: Partial<Record<RunEventName | 'within', string>>;
  within?: <T>(scope: RunScope, work: () => T) => T;
};

/**
 * The key under which props carry more observers of the run, for an adapter whose user calls `runAgentLoop` itself
 * (the devtools recorder spreads its props in): a symbol, so that no user prop can clash with it and JSON drops it.
 *
 * @internal
 */
export const RUN_OBSERVERS: unique symbol = Symbol('agentcall.runObservers');

/** Props that may carry observers under {@link RUN_OBSERVERS}. */
export type WithRunObservers = { [RUN_OBSERVERS]?: readonly RunObserver[] };
