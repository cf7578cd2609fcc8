import type { LLMResponse } from '../../llm/request';
import type { ChatCompletionMessageToolCall, UsageItem } from '../../llm/type';
import type { ToolExecuteContext, ToolOutcome } from '../../toolCall/type';

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

/** The caller's observers of the run: its hooks and its tracer. */
export type ObserverOptions = {
  /** Called with each billable item as it happens. */
  usagePush?: (usages: UsageItem[]) => void;
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
};
