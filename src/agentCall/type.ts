import type { LLMClient } from '../llm/client';
import type { CreateLLMResponseProps, LLMRequestBody, ResponseEvents } from '../llm/request';
import type { Wire } from '../llm/wires/wire';
import type { ChatCompletionCustomTool, ChatCompletionTool, UsageItem } from '../llm/type';
import type { ToolJournal } from '../toolCall/journal';
import type { ToolDefinition, ToolExecuteResult } from '../toolCall/type';
import type { NestingOptions } from './agents/nesting-options';
import type { BudgetOptions } from './budget/budget-options';
import type { CompressionOptions, ContextOptions } from './context/context-options';
import type {
  AfterToolCallEvent,
  AgentTracer,
  CompressContextEvent,
  ObserverOptions,
  RequestEndEvent,
  ToolCompressEvent,
  ToolProgressEvent,
} from './events/event-types';
import type { FallbackEntry } from './fallback/fallback-entry';
import type { FallbackOptions } from './fallback/fallback-options';
import type { OutputOptions } from './output/output-options';
import type { ModelPrice, RunBudget } from './state/budget-types';
import type { OutputSpec, SchemaProfile } from './state/output-types';
import type { ChildrenInteractiveParams } from './state/run-result';
import type { Decision, RunState } from './state/run-state';
import type { StateOptions } from './state/state-options';
import type { ModelRequestOptions, ToolCallOptions, TurnLimits } from './turn/turn-options';

export type { CompressionOptions } from './context/context-options';
export type {
  AfterToolCallEvent,
  AgentSpan,
  AgentTracer,
  CompressContextEvent,
  RequestEndEvent,
  ToolCompressEvent,
  ToolProgressEvent,
} from './events/event-types';
export type {
  AgentStopReason,
  ChildrenInteractiveParams,
  RunAgentResponse,
  ToolCallChildrenInteractive,
} from './state/run-result';

/**
 * Arguments of `runAgentLoop`. `T` is the type of the typed final answer (`output`); without `output` it is
 * `unknown`.
 */
export type RunAgentCallProps<T = unknown> = ResponseEvents & {
  /** The chat-completions body (model, messages, temperature, …) without `tools`: those come from `tools`. */
  body: Omit<LLMRequestBody, 'tools'>;
  /** Every tool the model may call (function tools and custom tools); the model sees `tools.map(t => t.schema)`. */
  // `any` as in `ToolDefinition` itself: tools with different params (and custom tools) must all fit one list.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tools: ToolDefinition<any, ChatCompletionTool | ChatCompletionCustomTool>[];
  /** Most model requests in one run (default 20). */
  maxRunAgentTimes?: number;
  /** Called with each billable item as it happens. */
  usagePush?: (usages: UsageItem[]) => void;
  /** Polled during the run: return true to stop it. */
  isAborted?: () => boolean | undefined | null;
  /** Aborting it stops the run, cancels the current request and aborts running tools' signals. */
  abortSignal?: AbortSignal;
  /**
   * Who the run acts for (a user, a tenant, auth claims): every tool gets it as `ctx.caller` (`@Ctx()` included).
   * It is never sent to the model, so the model can neither see nor forge it.
   */
  caller?: unknown;
  /**
   * An openai SDK client, `new OpenAI(...)` from openai 6 or 7 (any OpenAI-compatible server); without it one is
   * built from `userKey` or the environment.
   */
  client?: LLMClient;
  userKey?: CreateLLMResponseProps['userKey'];
  /** Per-request SDK options (timeout in ms, headers). */
  requestOptions?: { timeout?: number; headers?: Record<string, string> };

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
  /** Record each executed call's result under `${runId}:${call.id}`; a recorded call is never executed again. */
  journal?: ToolJournal;

  /** Resume a paused run: the `params` of a previous `interactiveResponse`. */
  childrenInteractiveParams?: ChildrenInteractiveParams;
  /** Finish the paused tool with the user's answer; its `response` replaces the paused tool message. */
  handleInteractiveTool?: (params: ChildrenInteractiveParams) => Promise<ToolExecuteResult>;

  /** Summarise history and shorten large tool responses against the model's context window (off by default). */
  compression?: CompressionOptions;
  /** Cap every tool response at this many tokens, keeping its head and tail (off by default). */
  maxToolResponseTokens?: number;
  onAfterCompressContext?: (e: CompressContextEvent) => void;
  onToolCompress?: (e: ToolCompressEvent) => void;
  /** After every tool call on every path (found, not found, bad arguments, throw, timeout, skipped), before compression. */
  onAfterToolCall?: (e: AfterToolCallEvent) => void;
  /** Each `ctx.progress(…)` report of a running tool, with its call; a tool nobody listens to reports into nothing. */
  onToolProgress?: (e: ToolProgressEvent) => void;
  /** After each main model request: its id, usage and timing, for users without a tracer. */
  onRequestEnd?: (e: RequestEndEvent) => void;
  /**
   * An OpenTelemetry tracer (`trace.getTracer('my-app')`): spans `invoke_agent`, `chat <model>` and
   * `execute_tool <name>` after the GenAI semantic conventions. Needs the optional peer `@opentelemetry/api`,
   * which is loaded only when a tracer is given. No prompt or argument content is recorded unless `traceContent` is set.
   */
  tracer?: AgentTracer;
  /**
   * Also record each tool call's arguments and result on its `execute_tool` span (`gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`), secrets masked and each cut to 2,000 characters (default false). Only with a
   * `tracer`; turn it on only where the trace backend may hold what users and tools send.
   */
  traceContent?: boolean;

  /** How many of one turn's tool calls run at once (default 1: in order); messages stay in call order. */
  toolConcurrency?: number;
  /**
   * Correct tool arguments that failed to parse or validate, for tools without a `repairArguments` of their own:
   * called once per such call; what it returns is validated again before the tool runs.
   */
  repairArguments?: ToolDefinition['repairArguments'];
  /**
   * Most tool calls of one turn that are run (default `DEFAULT_MAX_TOOL_CALLS_PER_TURN`, 64); each call past it gets
   * a tool message saying it was not run, so a model cannot fire a side-effecting tool thousands of times at once.
   */
  maxToolCallsPerTurn?: number;
  /**
   * Most bytes one model response may have (default 16 MiB), counted on what it accumulates (answer text, reasoning,
   * tool calls), not on the SSE envelopes around it; past it the request ends with `ResponseTooLargeError`.
   */
  maxResponseBytes?: number;
  /** Longest SSE line one streamed model response may send (default 2 MiB). */
  maxSseLineBytes?: number;
  /**
   * How streamed model responses are parsed: `'lean'` (default) reads the body with a small SSE parser and
   * `JSON.parse` after the SDK has sent the request (its retries, errors, auth and headers still apply); `'sdk'`
   * uses the openai SDK's own stream iterator. Both give the same responses and hooks.
   */
  streamParser?: 'lean' | 'sdk';
  /**
   * Which API this call's model requests (summaries included) go over: `'chat'` (Chat Completions), `'responses'`
   * (the Responses API), or `'auto'` (default): `'responses'` when the client's `baseURL` is OpenAI's own API
   * (`https://api.openai.com/...`), `'chat'` otherwise. The history, hooks, ids, stop reasons and `RunState` are the
   * same on both; the Responses wire keeps the model's reasoning items on its assistant messages (`reasoning_items`)
   * and sends them back on every later request. Each call chooses its own: a run resumed on the chat wire drops them.
   */
  wire?: Wire;
  /**
   * Models to move to, in order, when the model the run is on fails with a retryable error once the SDK's own
   * retries are spent (429, 408, 5xx, overloaded, a timeout, a connection failure, a stalled stream) before any of
   * its answer came in: the same request goes to the next entry (its `client` or the run's, its `wire` or the run's),
   * and the run stays there. A 400, 401, 403 or other 4xx never falls back. When the last entry fails too, its error
   * comes back. The model the run is on is kept in `state.model` / `state.fallbackIndex`. See `docs/fallback.md`.
   */
  fallback?: FallbackEntry[];
  /** Timeout for tools that set no `timeoutMs` of their own. */
  toolTimeoutMs?: number;
  /** Stop the whole run after this many milliseconds (`stopReason: 'timeout'`). */
  timeoutMs?: number;
  /**
   * Hard ceilings on what the run may spend (tokens, tool calls, US dollars), counted across resumes in
   * `state.spent` and `state.usage`: once one is spent the run ends with `stopReason: 'budget'`. See
   * `docs/budgets.md`. A value that cannot be kept ends the run at once with an `InvalidBudgetError`.
   */
  budget?: RunBudget;
  /**
   * What each model costs, in US dollars per million tokens, for `budget.costUsd`: a model the run may use without
   * a price ends the run at once with a `MissingPriceError` (never priced at zero).
   */
  prices?: Record<string, ModelPrice>;
  /**
   * How deep agents (`defineAgent`) may call agents: an agent call whose `agentPath` would be longer is answered with a
   * tool message saying so, and no agent starts (default 4).
   */
  maxAgentDepth?: number;
  /** After this many consecutive tool-only turns the next request sends `tool_choice: 'none'` (default 5; 0 = never). */
  maxConsecutiveToolTurns?: number;

  /**
   * A typed final answer: a class-validator DTO class (validated by the same path as tool parameters, `output` is an
   * instance of it) or a Standard Schema v1 that gives a JSON Schema. The schema goes out with every request of the
   * run (tools stay available); the final answer (a turn without tool calls) must be JSON (alone, or alone in one
   * code fence) that validates, else the model gets a feedback message and another request, up to `outputRetries`.
   * Cannot be combined with `body.response_format`.
   */
  output?: OutputSpec<T>;
  /** Feedback rounds on a final answer that fails `output` before `stopReason: 'output_invalid'` (default 2). */
  outputRetries?: number;
  /**
   * The schema profile the `output` schema is written for (default `'openai'`, `strict: false`); `'openai-strict'`
   * sends it with `strict: true` in OpenAI's strict form. The same profiles as `toolsFrom`.
   */
  outputProfile?: SchemaProfile;
  /**
   * How the `output` schema reaches the model: `'json_schema'` (default; `response_format` / `text.format`) or
   * `'instructions'` (a system message, for providers without structured output).
   */
  outputMode?: 'json_schema' | 'instructions';
  /** The name the `output` schema goes out under (default: the class name, the schema's `title`, or `'output'`). */
  outputName?: string;
};

/**
 * Every option of a run but its typed final answer, room by room: what the core loop takes from the door and
 * hands each part of the run as that part's own slice.
 *
 * @internal
 */
export type RunSlices = ResponseEvents &
  ModelRequestOptions &
  TurnLimits &
  ToolCallOptions &
  StateOptions &
  ObserverOptions &
  ContextOptions &
  BudgetOptions &
  FallbackOptions &
  NestingOptions;

/** True when `A` and `B` are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`. */
type Holds<T extends true> = T;

/**
 * The public props, written out for their readers, are the rooms' slices together, option for option: an option
 * added to one and not the other fails to compile here.
 *
 * @internal
 */
export type PropsAreTheSlices = Holds<Same<RunAgentCallProps, RunSlices & OutputOptions>>;
