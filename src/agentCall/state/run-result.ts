import type { LLMResponse } from '../../llm/request';
import type { ChatCompletionMessageParam, UsageItem } from '../../llm/type';
import type { ToolExecuteResult } from '../../toolCall/type';
import type { RunState } from './run-state';

/** What a paused run saved: the tool's question, the history at the pause, and the call awaiting an answer. */
export type ChildrenInteractiveParams = {
  /** What the tool returned in `interactive`. */
  childrenResponse: NonNullable<ToolExecuteResult['interactive']>;
  toolParams: {
    /** The whole request history at the pause, the paused tool's own `role: 'tool'` message included. */
    memoryRequestMessages: ChatCompletionMessageParam[];
    /** The id of the call whose tool message the resumed answer replaces. */
    toolCallId: string;
  };
};

/** The `interactiveResponse` of a paused run; persist it and pass its `params` back to resume. */
export type ToolCallChildrenInteractive = NonNullable<RunAgentResponse['interactiveResponse']>;

/** Why a run ended. */
export type AgentStopReason =
  /** The model answered without calling a tool. */
  | 'completed'
  /** A tool returned `stop`. */
  | 'tool_stop'
  /** The run waits for a person: a call needs approval or a tool returned `interactive` (see `state.pending`). */
  | 'interactive'
  /** `isAborted` returned true or `abortSignal` fired. */
  | 'aborted'
  /** `maxRunAgentTimes` model turns were used up. */
  | 'max_turns'
  /** The run-wide `timeoutMs` passed. */
  | 'timeout'
  /** A model request failed (see `error`) or the model sent an empty response. */
  | 'error'
  /**
   * The run's `budget` is spent: a token or cost limit was reached with more to do, or a call came past
   * `budget.toolCalls`. Every call the model made is answered; calls not run say so (`outcome: 'skipped'`).
   */
  | 'budget'
  /**
   * The final answer did not match the `output` schema, after `outputRetries` feedback rounds: `error` is an
   * `OutputValidationError` listing the last answer's problems, `output` is absent, every message is kept.
   */
  | 'output_invalid'
  /**
   * The model refused (chat `refusal`, Responses `refusal` content): `refusal` holds its text, `error` is absent, the
   * message is kept in the history. With `output`, a refusal is not retried as an invalid answer.
   */
  | 'refusal';

/** What `runAgentLoop` returns; `T` is the type of `output`. */
export type RunAgentResponse<T = unknown> = {
  /** The whole request history at the end: input, assistant messages and tool messages. */
  completeMessages: ChatCompletionMessageParam[];
  /** Only what this run produced: assistant messages, tool messages, and messages tools returned. */
  assistantMessages: ChatCompletionMessageParam[];
  /** Set when a tool paused the run; pass `interactiveResponse.params` as `childrenInteractiveParams` to resume. */
  interactiveResponse?: { type: 'toolChildrenInteractive'; params: ChildrenInteractiveParams };
  /** Sum over the main model requests. */
  inputTokens: number;
  outputTokens: number;
  /** Every usage item pushed during the run, in order. */
  usages: UsageItem[];
  /** Of the last model request. */
  finish_reason: LLMResponse['finish_reason'];
  /** One id per main model request. */
  requestIds: string[];
  /**
   * The last assistant text of this run (the model's own words, not tool messages), `''` when it wrote none.
   * After an error or abort it is the text that arrived before it.
   */
  text: string;
  /**
   * What ended the run with `stopReason: 'error'`: the SDK's `APIError` family for a failed request, or one of
   * agentcall's named errors. Anything else that was thrown is wrapped in an `Error` (the value is its `cause`).
   */
  error?: Error;
  stopReason: AgentStopReason;
  /**
   * The Responses output items this run's assistant messages kept besides text, reasoning and calls (a hosted tool's
   * `web_search_call`, an `mcp_call`, a `compaction`, a type not known yet), in order, as received; absent when none.
   */
  items?: ({ type: string; id?: string } & Record<string, unknown>)[];
  /** The model's refusal when the run ended with `stopReason: 'refusal'`; absent otherwise. */
  refusal?: string;
  /**
   * The validated final answer when the run was given `output` and ended with `stopReason: 'completed'` (an
   * instance of the DTO class, or the Standard Schema's output); absent otherwise.
   */
  output?: T;
  /** Model requests made by this call (`state.turn` counts across resumes). */
  runTimes: number;
  /** Everything needed to resume the run, on every stop reason; plain JSON. */
  state: RunState;
};
