import type * as OpenTelemetry from '@opentelemetry/api';
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

/**
 * The spans of one run, after the OpenTelemetry GenAI semantic conventions: `invoke_agent` for the run, a
 * `chat <model>` child per model request and an `execute_tool <name>` child per tool call. Request and tool
 * spans are recorded when their timing is known (`onRequestEnd`, `onAfterToolCall`), with their real start
 * times. A resumed run (`resumeFrom.traceparent`) continues the trace it started in.
 *
 * @internal
 */
export class RunTracing {
  private readonly api: OtelApi;
  private readonly span: AgentSpan;
  private readonly context: unknown;

  constructor(
    private readonly tracer: AgentTracer,
    model: string,
    traceparent: string | undefined,
  ) {
    this.api = loadOtelApi();
    let parent = this.api.context.active();
    const remote = traceparent === undefined ? undefined : parseTraceparent(traceparent);
    if (remote) parent = this.api.trace.setSpanContext(parent, remote);
    this.span = tracer.startSpan(
      'invoke_agent',
      {
        kind: SPAN_KIND_INTERNAL,
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': model },
      },
      parent,
    );
    this.context = this.api.trace.setSpan(parent, this.span as never);
  }

  /** The props the loop runs with: the caller's hooks, each also recording its span. */
  wrap(props: RunAgentCallProps): RunAgentCallProps {
    const { onRequestEnd, onAfterToolCall, onCheckpoint } = props;
    return {
      ...props,
      onRequestEnd: (e) => {
        this.requestEnd(e);
        onRequestEnd?.(e);
      },
      onAfterToolCall: (e) => {
        this.toolEnd(e);
        onAfterToolCall?.(e);
      },
      ...(onCheckpoint && { onCheckpoint: (state: RunState) => onCheckpoint(this.stamp(state)) }),
    };
  }

  /** End the run's span and hand back the result with the trace context in its state. */
  end(result: RunAgentResponse): RunAgentResponse {
    this.span.setAttribute('agentcall.stop_reason', result.stopReason);
    this.span.setAttribute('gen_ai.usage.input_tokens', result.inputTokens);
    this.span.setAttribute('gen_ai.usage.output_tokens', result.outputTokens);
    if (result.error) {
      this.span.recordException(result.error);
      this.span.setStatus({ code: STATUS_ERROR, message: result.error.message });
    }
    this.span.end();
    return { ...result, state: this.stamp(result.state) };
  }

  private stamp(state: RunState): RunState {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return { ...state, traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}` };
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
          'gen_ai.response.id': e.requestId,
          'gen_ai.usage.input_tokens': e.usage.inputTokens,
          'gen_ai.usage.output_tokens': e.usage.outputTokens,
          ...(e.finishReason !== null && { 'gen_ai.response.finish_reasons': [e.finishReason] }),
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
    const name = e.call.function.name;
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: SPAN_KIND_INTERNAL,
        startTime: end - e.durationMs,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.id': e.call.id,
          'agentcall.tool.outcome': e.outcome,
          'agentcall.tool.response_chars': e.response.length,
        },
      },
      this.context,
    );
    if (FAILED_OUTCOMES.has(e.outcome)) fail(span, e.error ?? e.outcome);
    span.end(end);
  }
}

function fail(span: AgentSpan, error: unknown): void {
  // Only the error's kind and message: a tool's error may carry its arguments, which stay out of traces.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error);
  span.setStatus({ code: STATUS_ERROR, message: message.slice(0, 200) });
}

/** `00-<trace id>-<span id>-<flags>` (W3C Trace Context) as a remote span context; anything else is ignored. */
function parseTraceparent(
  value: string,
): { traceId: string; spanId: string; traceFlags: number; isRemote: true } | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value);
  if (!match) return undefined;
  return { traceId: match[1], spanId: match[2], traceFlags: Number.parseInt(match[3], 16), isRemote: true };
}

function loadOtelApi(): OtelApi {
  // An optional peer, loaded only when a tracer is given: without one, nothing of OpenTelemetry is required.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@opentelemetry/api') as OtelApi;
}
