import type * as OpenTelemetry from '@opentelemetry/api';
import { DEFAULT_MAX_MODEL_TEXT_CHARS } from '../constants';
import { modelSafeText, toModelText } from '../text/model-text';
import type { RunState } from './run-state';
import type {
  AfterToolCallEvent,
  AgentSpan,
  AgentTracer,
  RequestEndEvent,
  RunAgentCallProps,
  RunAgentResponse,
} from './type';

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

/**
 * The prop through which the loop reports the text the model reads for a call once it is final (after any
 * compression). A symbol, so that no caller's prop can be mistaken for it.
 *
 * @internal
 */
export const TOOL_SETTLED = Symbol('agentcall.toolSettled');

/**
 * The props the loop runs with when traced: the caller's, plus the loop's report of each call's final text.
 *
 * @internal
 */
export type TracedProps = RunAgentCallProps & {
  [TOOL_SETTLED]?: (callId: string, modelText: string) => void;
};

/** A tool span waiting for the text the model reads: it ends then, at the time the tool itself finished. */
type OpenToolSpan = { span: AgentSpan; end: number; response: string };

/**
 * The spans of one run, after the OpenTelemetry GenAI semantic conventions: `invoke_agent` for the run, a
 * `chat <model>` child per model request and an `execute_tool <name>` child per tool call. Request and tool
 * spans are recorded when their timing is known (`onRequestEnd`, `onAfterToolCall`), with their real start
 * times; a tool span ends once the loop has fitted the call's response into the model's budget, so it can say
 * how much of it the model reads. A resumed run (`resumeFrom.traceparent`) continues the trace it started in.
 * A tracer that throws loses its spans, never the run.
 *
 * @internal
 */
export class RunTracing {
  private readonly span: AgentSpan | undefined;
  private readonly context: unknown;
  private readonly openTools = new Map<string, OpenToolSpan>();
  private traceContent = false;

  constructor(
    private readonly tracer: AgentTracer,
    model: string,
    traceparent: string | undefined,
  ) {
    const api = loadOtelApi();
    try {
      let parent = api.context.active();
      const remote = traceparent === undefined ? undefined : parseTraceparent(traceparent);
      if (remote) parent = api.trace.setSpanContext(parent, remote);
      this.span = tracer.startSpan(
        'invoke_agent',
        {
          kind: SPAN_KIND_INTERNAL,
          attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': model },
        },
        parent,
      );
      this.context = api.trace.setSpan(parent, this.span as never);
    } catch {
      // A tracer that cannot start the run's span records nothing for this run; the run itself goes on.
      this.span = undefined;
    }
  }

  /** The props the loop runs with: the caller's hooks, each also recording its span. */
  wrap(props: RunAgentCallProps): TracedProps {
    if (!this.span) return props;
    const { onRequestEnd, onAfterToolCall, onCheckpoint } = props;
    const stamped = onCheckpoint && { onCheckpoint: (state: RunState) => onCheckpoint(this.stamp(state)) };
    // A run span nobody records (OpenTelemetry's no-op tracer, a trace sampled out) would only have children
    // nobody records either: the loop runs as it does untraced, and the state still carries the context.
    if (!isRecording(this.span)) return stamped ? { ...props, ...stamped } : props;
    this.traceContent = props.traceContent === true;
    return {
      ...props,
      onRequestEnd: (e) => {
        quietly(() => this.requestEnd(e));
        // The caller's hook's own result goes back, so a rejection still reaches onHookError.
        return onRequestEnd?.(e);
      },
      onAfterToolCall: (e) => {
        quietly(() => this.toolEnd(e));
        return onAfterToolCall?.(e);
      },
      [TOOL_SETTLED]: (callId, modelText) => quietly(() => this.toolSettled(callId, modelText)),
      ...stamped,
    };
  }

  /** End the run's span and hand back the result with the trace context in its state. */
  end(result: RunAgentResponse): RunAgentResponse {
    const span = this.span;
    if (!span) return result;
    // Calls answered outside a turn (a resumed interactive tool) have no fitted text: they end as they are.
    for (const open of this.openTools.values()) quietly(() => open.span.end(open.end));
    this.openTools.clear();
    quietly(() => {
      span.setAttribute('agentcall.stop_reason', result.stopReason);
      span.setAttribute('gen_ai.usage.input_tokens', result.inputTokens);
      span.setAttribute('gen_ai.usage.output_tokens', result.outputTokens);
      if (result.error) {
        // Without the stack: its first line repeats the message unmasked.
        span.recordException({
          name: result.error.name,
          message: modelSafeText(result.error.message, ERROR_MAX_CHARS),
        });
        fail(span, result.error);
      }
      span.end();
    });
    return { ...result, state: this.stamp(result.state) };
  }

  private stamp(state: RunState): RunState {
    try {
      const { traceId, spanId, traceFlags } = this.span!.spanContext();
      // OpenTelemetry's no-op tracer gives all-zero ids: a context nobody can continue is not worth saving.
      if (traceId === INVALID_TRACE_ID) return state;
      return { ...state, traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}` };
    } catch {
      return state;
    }
  }

  private requestEnd(e: RequestEndEvent): void {
    const end = Date.now();
    const span = this.tracer.startSpan(
      `chat ${e.model}`,
      {
        kind: SPAN_KIND_CLIENT,
        startTime: end - e.ms,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': e.model,
          'gen_ai.response.id': spanText(e.requestId),
          'gen_ai.usage.input_tokens': e.usage.inputTokens,
          'gen_ai.usage.output_tokens': e.usage.outputTokens,
          ...(e.finishReason !== null && { 'gen_ai.response.finish_reasons': [spanText(e.finishReason)] }),
          ...(e.firstChunkMs !== undefined && { 'agentcall.request.first_chunk_ms': e.firstChunkMs }),
        },
      },
      this.context,
    );
    if (e.error !== undefined) fail(span, e.error);
    span.end(end);
  }

  private toolEnd(e: AfterToolCallEvent): void {
    const end = Date.now();
    // The model names the tool (it may make one up) and the endpoint may choose the id: neither is trusted.
    const name = spanText(e.call.function.name);
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: SPAN_KIND_INTERNAL,
        startTime: end - e.durationMs,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.id': spanText(e.call.id),
          'agentcall.tool.outcome': e.outcome,
          'agentcall.tool.response_chars': e.response.length,
          // Opt-in only: arguments and results may hold personal data; secrets are masked even then.
          ...(this.traceContent && {
            'gen_ai.tool.call.arguments': modelSafeText(e.call.function.arguments, CONTENT_MAX_CHARS),
            'gen_ai.tool.call.result': modelSafeText(e.response, CONTENT_MAX_CHARS),
          }),
        },
      },
      this.context,
    );
    if (FAILED_OUTCOMES.has(e.outcome)) fail(span, e.error ?? e.outcome);
    // An id seen twice must not leave the first span open forever.
    this.openTools.get(e.call.id)?.span.end(end);
    this.openTools.set(e.call.id, { span, end, response: e.response });
  }

  private toolSettled(callId: string, modelText: string): void {
    const open = this.openTools.get(callId);
    if (!open) return;
    this.openTools.delete(callId);
    // The loop hands back the tool's own string when it fits, so any other text is a compressed one.
    if (modelText !== open.response) open.span.setAttribute('agentcall.tool.compressed_chars', modelText.length);
    open.span.end(open.end);
  }
}

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

function fail(span: AgentSpan, error: unknown): void {
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
