import type { LLMClient } from '../llm/client';
import type { CreateLLMResponseProps, LLMRequestBody, LLMResponse, ResponseEvents } from '../llm/request';
import type { Wire } from '../llm/wires/wire';
import type {
  ChatCompletionCustomTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  UsageItem,
} from '../llm/type';
import type { ToolJournal } from '../toolCall/journal';
import type { ToolDefinition, ToolExecuteContext, ToolExecuteResult, ToolOutcome } from '../toolCall/type';
import type { ModelPrice, RunBudget } from './budget/budget-types';
import type { FallbackEntry } from './fallback/fallback-entry';
import type { OutputSpec, SchemaProfile } from './output/output-types';
import type { Decision, RunState } from './state/run-state';

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

/** History compression: summarise old turns once the history nears the model's context window. */
export type CompressionOptions = {
  /** The model's context window, in tokens. */
  maxContext: number;
  /** Fraction of `maxContext` (after `reservedTokens`) that triggers compression; default 0.8. */
  threshold?: number;
  /** Tokens kept free for the model's answer; default min(8000, maxContext / 4). */
  reservedTokens?: number;
  /** Model used for the summaries; default `body.model`. */
  model?: string;
};

/** Reported after the history was summarised. */
export type CompressContextEvent = {
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  seconds: number;
  /** Estimated history tokens before and after. */
  beforeTokens: number;
  afterTokens: number;
};

/** Reported after a tool response was shortened to fit the budget. */
export type ToolCompressEvent = {
  call: ChatCompletionMessageToolCall;
  /** The text the model will read. */
  response: string;
  /** The tool's own text. */
  originalResponse: string;
  /** The summarising request's usage, when a model did the shortening (truncation has none). */
  usage?: UsageItem;
};

/** Reported by `onToolProgress` for each `ctx.progress(…)` of a running tool. */
export type ToolProgressEvent = Parameters<NonNullable<ToolExecuteContext['progress']>>[0] & {
  /** The call whose tool reported. */
  call: ChatCompletionMessageToolCall;
};

/** Reported by `onAfterToolCall` once per tool call, on every path, before compression and before its message is appended. */
export type AfterToolCallEvent = {
  call: ChatCompletionMessageToolCall;
  /** The tool's own text (uncompressed; an empty response is sent to the model as `'none'`). */
  response: string;
  /** How the call ended; see {@link ToolOutcome}. */
  outcome: ToolOutcome;
  /** The raw value behind a failed call (thrown value, parse failure, timeout or abort error), for logs; never sent to the model. */
  error?: unknown;
  /** Wall-clock time from the call's start to its result, in milliseconds (0 for a call that never started). */
  durationMs: number;
  /** How many times the tool ran for the call, for a tool with `retry` (the first run included). */
  attempts?: number;
  /** What each failed run before the last threw, oldest first (with `retry`); unmasked, for logs. */
  attemptErrors?: unknown[];
  /** The arguments the call ran with, when `repairArguments` corrected the model's (JSON text). */
  repairedArguments?: string;
  /**
   * With `runAgentLoop({ fallback })`: the model that made the call (the one the run is on), on calls the loop runs.
   * Absent without a `fallback` list.
   */
  model?: string;
  /** For an event of an agent's run (`defineAgent`): the call ids from the root run to that agent. */
  agentPath?: string[];
};

/** Reported by `onRequestEnd` after each main model request, whatever its outcome. */
export type RequestEndEvent = {
  /** The provider's completion id, or a generated one. */
  requestId: string;
  model: string;
  /** The provider's numbers, or an estimate when it reports none. */
  usage: { inputTokens: number; outputTokens: number };
  /** Milliseconds from sending the request to its end. */
  ms: number;
  /** Milliseconds to the first streamed chunk (absent when none arrived, or the response was not streamed). */
  firstChunkMs?: number;
  finishReason: LLMResponse['finish_reason'];
  /**
   * How many times the openai SDK sent the request again by itself (a 408, 409, 429, 5xx or failed connection, up
   * to the client's `maxRetries`): 0 when the first attempt was the last. Against a scripted mock, a retry takes the
   * next scripted reply; see `docs/testing.md`.
   */
  retries: number;
  /** The request error, when it failed. */
  error?: unknown;
  /** For an event of an agent's run (`defineAgent`): the call ids from the root run to that agent. */
  agentPath?: string[];
};

/**
 * The part of an OpenTelemetry `Tracer` the loop uses; a `Tracer` from `@opentelemetry/api` fits it. Declared
 * here so that the core's types never need the package.
 */
export type AgentTracer = {
  /** The part of an OpenTelemetry `Span` the loop uses. */
  startSpan(
    name: string,
    options?: object,
    context?: unknown,
  ): {
    setAttribute(key: string, value: string | number | boolean): unknown;
    setStatus(status: { code: number; message?: string }): unknown;
    recordException(exception: Error | string): unknown;
    end(endTime?: number): unknown;
    spanContext(): { traceId: string; spanId: string; traceFlags: number };
  };
};

/** The part of an OpenTelemetry `Span` the loop uses (what {@link AgentTracer}'s `startSpan` returns). */
export type AgentSpan = ReturnType<AgentTracer['startSpan']>;

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
