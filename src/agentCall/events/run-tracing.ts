import type * as OpenTelemetry from '@opentelemetry/api';
import { DEFAULT_MAX_MODEL_TEXT_CHARS } from '../../constants';
import { modelSafeText, toModelText } from '../../text/model-text';
import type { ChatCompletionMessageToolCall } from '../../llm/type';
import type { RunObserver, RunScope } from './run-events';
import type { AfterToolCallEvent, AgentSpan, AgentTracer, RequestEndEvent } from './event-types';
import type { RunAgentResponse } from '../state/run-result';

type OtelApi = typeof OpenTelemetry;

// OpenTelemetry's numeric enums, kept here so the core never imports the package for them.
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
/** Outcomes that are failures of the call itself; a rejection or a skip is the run's decision, not an error. */
const FAILED_OUTCOMES: ReadonlySet<string> = new Set(['error', 'timeout', 'aborted', 'not_found', 'invalid_arguments']);
/** Longest error text on a span's status or exception event. */
const ERROR_MAX_CHARS = 200;
/** Longest text the model or the endpoint chose (a tool name, an id) in a span name or attribute. */
const SPAN_TEXT_MAX_CHARS = 200;
const INVALID_TRACE_ID = '0'.repeat(32);
/** Longest argument or result text recorded with `traceContent`: the cap of any text agentcall writes for a model. */
const CONTENT_MAX_CHARS = DEFAULT_MAX_MODEL_TEXT_CHARS;

/** A tool span: open from the call's start until the model's text for it is final, ending when the call ended. */
type ToolSpan = { span: AgentSpan; context: unknown; end?: number; response?: string };

/**
 * The spans of one run, after the OpenTelemetry GenAI semantic conventions: `invoke_agent` for the run, a
 * `chat <model>` child per model request and an `execute_tool <name>` child per tool call. Each span starts when
 * its work starts and is the active span while it runs (through `within`), so spans the work itself starts (an
 * HTTP client, a database driver) are its children, with concurrent calls too. A tool span ends at the time its
 * call ended, once the loop has fitted the response into the model's budget, so it can say how much of it the
 * model reads. A resumed run (`resumeFrom.traceparent`) continues the trace it started in. An observer of the
 * run: a tracer that throws loses spans, never the run.
 *
 * @internal
 */
export class RunTracing {
  private readonly span: AgentSpan | undefined;
  private readonly api: OtelApi;
  private readonly context: unknown;
  /** By call object, not id: an id seen twice still gets two spans. */
  private readonly tools = new Map<ChatCompletionMessageToolCall, ToolSpan>();
  private request?: { span: AgentSpan; context: unknown };
  /** The run's W3C `traceparent`, for the states it saves; absent when nobody can continue it. */
  readonly traceparent: string | undefined;

  constructor(
    private readonly tracer: AgentTracer,
    private readonly model: string,
    private readonly provider: string,
    resumedFrom: string | undefined,
    private readonly traceContent: boolean,
    /** `invoke_agent`, or `invoke_agent <name>` for an agent's run. */
    spanName = 'invoke_agent',
  ) {
    this.api = loadOtelApi();
    const api = this.api;
    try {
      let parent = api.context.active();
      const remote = resumedFrom === undefined ? undefined : parseTraceparent(resumedFrom);
      if (remote) parent = api.trace.setSpanContext(parent, remote);
      this.span = tracer.startSpan(
        spanName,
        {
          kind: SPAN_KIND_INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.provider.name': provider,
            'gen_ai.request.model': model,
          },
        },
        parent,
      );
      this.context = api.trace.setSpan(parent, this.span as never);
    } catch {
      // A tracer that cannot start the run's span records nothing for this run; the run itself goes on.
      this.span = undefined;
    }
    this.traceparent = this.span && traceparentOf(this.span);
  }

  /**
   * The run's observer; none when the run's span records nothing (OpenTelemetry's no-op tracer, a trace sampled
   * out): its children would be recorded by nobody either, so the loop runs as it does untraced.
   */
  observer(): RunObserver | undefined {
    if (!this.span || !isRecording(this.span)) return undefined;
    return {
      name: 'tracer',
      within: (scope, work) => this.within(scope, work),
      requestStart: (e) => this.requestStart(e.model, e.provider ?? this.provider),
      requestEnd: (e) => this.requestEnd(e),
      toolStart: (e) => this.toolStart(e.call),
      toolEnd: (e) => this.toolEnd(e),
      toolSettled: (e) => this.toolSettled(e.call, e.modelText),
      runEnd: (result) => this.end(result),
    };
  }

  private within<T>(scope: RunScope, work: () => T): T {
    const context =
      scope.kind === 'run'
        ? this.context
        : scope.kind === 'request'
          ? this.request?.context
          : this.tools.get(scope.call)?.context;
    if (context === undefined) return work();
    return this.api.context.with(context as never, work);
  }

  private startChild(name: string, kind: number, attributes: Record<string, string | number>) {
    const span = this.tracer.startSpan(name, { kind, attributes }, this.context);
    return { span, context: this.api.trace.setSpan(this.context as never, span as never) };
  }

  /** `model` and `provider` are the request's own: with a `fallback` list, not always the run's. */
  private requestStart(model: string, provider: string): void {
    this.request = this.startChild(`chat ${model}`, SPAN_KIND_CLIENT, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
    });
  }

  private requestEnd(e: RequestEndEvent): void {
    const open = this.request;
    this.request = undefined;
    if (!open) return;
    const { span } = open;
    span.setAttribute('gen_ai.response.id', spanText(e.requestId));
    span.setAttribute('gen_ai.usage.input_tokens', e.usage.inputTokens);
    span.setAttribute('gen_ai.usage.output_tokens', e.usage.outputTokens);
    if (e.finishReason !== null) setList(span, 'gen_ai.response.finish_reasons', [spanText(e.finishReason)]);
    if (e.firstChunkMs !== undefined) span.setAttribute('gen_ai.response.time_to_first_chunk', e.firstChunkMs / 1000);
    if (e.retries > 0) span.setAttribute('agentcall.request.retries', e.retries);
    if (e.error !== undefined) fail(span, e.error, errorType(e.error));
    else span.setAttribute('gen_ai.response.model', e.model);
    span.end();
  }

  private toolStart(call: ChatCompletionMessageToolCall): void {
    // The model names the tool (it may make one up) and the endpoint may choose the id: neither is trusted.
    const name = spanText(call.function.name);
    const open = this.startChild(`execute_tool ${name}`, SPAN_KIND_INTERNAL, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': spanText(call.id),
    });
    this.tools.get(call)?.span.end();
    this.tools.set(call, open);
  }

  private toolEnd(e: AfterToolCallEvent): void {
    const open = this.tools.get(e.call);
    if (!open) return;
    const span = open.span;
    open.end = Date.now();
    open.response = e.response;
    span.setAttribute('agentcall.tool.outcome', e.outcome);
    span.setAttribute('agentcall.tool.response_chars', e.response.length);
    if (e.attempts !== undefined) span.setAttribute('agentcall.tool.attempts', e.attempts);
    // Each failed run before the last, as the run's own error is recorded: kind and masked message, no stack.
    for (const failed of e.attemptErrors ?? []) span.recordException(exceptionOf(failed));
    if (e.repairedArguments !== undefined) span.setAttribute('agentcall.tool.arguments_repaired', true);
    // Opt-in only: arguments and results may hold personal data; secrets are masked even then.
    if (this.traceContent) {
      span.setAttribute('gen_ai.tool.call.arguments', modelSafeText(e.call.function.arguments, CONTENT_MAX_CHARS));
      span.setAttribute('gen_ai.tool.call.result', modelSafeText(e.response, CONTENT_MAX_CHARS));
    }
    if (FAILED_OUTCOMES.has(e.outcome)) {
      fail(span, e.error ?? e.outcome, e.error instanceof Error ? errorType(e.error) : e.outcome);
    }
  }

  private toolSettled(call: ChatCompletionMessageToolCall, modelText: string): void {
    const open = this.tools.get(call);
    if (!open || open.end === undefined) return;
    this.tools.delete(call);
    // The loop hands back the tool's own string when it fits, so any other text is a compressed one.
    if (modelText !== open.response) open.span.setAttribute('agentcall.tool.compressed_chars', modelText.length);
    open.span.end(open.end);
  }

  /** End the run's span, and any span the run left open. */
  private end(result: RunAgentResponse): void {
    const span = this.span!;
    // Calls answered outside a turn (a resumed interactive tool) have no fitted text: they end as they are.
    for (const open of this.tools.values()) quietly(() => open.span.end(open.end));
    this.tools.clear();
    span.setAttribute('agentcall.stop_reason', result.stopReason);
    span.setAttribute('gen_ai.usage.input_tokens', result.inputTokens);
    span.setAttribute('gen_ai.usage.output_tokens', result.outputTokens);
    if (result.error) {
      // Without the stack: its first line repeats the message unmasked.
      span.recordException(exceptionOf(result.error));
      fail(span, result.error, errorType(result.error));
    }
    span.end();
  }
}

/** `00-<trace id>-<span id>-<flags>` of a span; none for OpenTelemetry's no-op ids, which nobody can continue. */
function traceparentOf(span: AgentSpan): string | undefined {
  try {
    const { traceId, spanId, traceFlags } = span.spanContext();
    if (traceId === INVALID_TRACE_ID) return undefined;
    return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
  } catch {
    return undefined;
  }
}

/** An array attribute: `AgentSpan` types values as scalars, OpenTelemetry's `Span` takes arrays too. */
function setList(span: AgentSpan, key: string, value: string[]): void {
  (span.setAttribute as (key: string, value: unknown) => unknown).call(span, key, value);
}

/** The low-cardinality kind of a failure for `error.type`: an error's class name, capped, else `_OTHER`. */
function errorType(error: unknown): string {
  return error instanceof Error && error.name ? spanText(error.name) : '_OTHER';
}

/**
 * The conventions' `gen_ai.provider.name` of the endpoint a client talks to; `openai` for any other
 * OpenAI-compatible server, whose wire it speaks.
 *
 * @internal
 */
export function providerName(client: object): string {
  let host: string;
  try {
    // The openai SDK's client has it; the core's client type does not need it.
    const { baseURL } = client as { baseURL?: unknown };
    host = typeof baseURL === 'string' ? new URL(baseURL).hostname : 'api.openai.com';
  } catch {
    return 'openai';
  }
  for (const [suffix, name] of PROVIDER_HOSTS) if (host === suffix || host.endsWith(`.${suffix}`)) return name;
  return 'openai';
}

const PROVIDER_HOSTS: readonly [string, string][] = [
  ['openai.azure.com', 'azure.ai.openai'],
  ['anthropic.com', 'anthropic'],
  ['googleapis.com', 'gcp.gemini'],
  ['deepseek.com', 'deepseek'],
  ['mistral.ai', 'mistral_ai'],
  ['groq.com', 'groq'],
  ['x.ai', 'x_ai'],
  ['perplexity.ai', 'perplexity'],
];

/**
 * Text the model or the endpoint controls (a tool name, a call or response id, a finish reason), as it may go
 * into a span name or attribute: masked and cut to 200 characters, like the text the model itself reads.
 */
function spanText(text: string): string {
  return modelSafeText(text, SPAN_TEXT_MAX_CHARS);
}

/** `Span.isRecording()`, which every OpenTelemetry span has; a tracer of another make is taken as recording. */
function isRecording(span: AgentSpan): boolean {
  try {
    const { isRecording } = span as { isRecording?: () => boolean };
    return typeof isRecording !== 'function' || isRecording.call(span) !== false;
  } catch {
    return true;
  }
}

function quietly(record: () => void): void {
  try {
    record();
  } catch {
    // Tracing observes the run: a tracer or exporter that throws loses a span, never the run.
  }
}

/** An error as a span's exception event: its kind and masked, cut message; never its stack. */
function exceptionOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: modelSafeText(error.message, ERROR_MAX_CHARS) };
  return { name: 'Error', message: modelSafeText(toModelText(error), ERROR_MAX_CHARS) };
}

function fail(span: AgentSpan, error: unknown, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: STATUS_ERROR, message: errorText(error) });
}

/**
 * Only an error's kind and message, masked and cut: a tool's error may carry its arguments or a credential, which
 * stay out of traces like they stay out of the model's view.
 */
function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : toModelText(error);
  return modelSafeText(text, ERROR_MAX_CHARS);
}

/** `00-<trace id>-<span id>-<flags>` (W3C Trace Context) as a remote span context; anything else is ignored. */
function parseTraceparent(
  value: string,
): { traceId: string; spanId: string; traceFlags: number; isRemote: true } | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value);
  if (!match) return undefined;
  return { traceId: match[1], spanId: match[2], traceFlags: Number.parseInt(match[3], 16), isRemote: true };
}

let otelApi: OtelApi | undefined;

function loadOtelApi(): OtelApi {
  // An optional peer, loaded only when a tracer is given: without one, nothing of OpenTelemetry is required. Kept
  // once loaded: resolving a bare specifier again costs more than a no-op tracer's whole run.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (otelApi ??= require('@opentelemetry/api') as OtelApi);
}
