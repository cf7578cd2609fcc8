import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  runAgentLoop,
  type ChatCompletionMessageParam,
  type Decision,
  type RunAgentResponse,
  type Wire,
} from '../../src';
import { startScriptedServer } from '../../src/testing';
import { demoScript } from '../demo/scripted-model';
import { sampleTools } from '../tools';

/** The demo's prompt: weather, a to-do with one validation mistake, and two shares that need approval. */
export const DEMO_PROMPT = 'Weather in Rome, and add a to-do to book a table';

/**
 * Run the demo's agent against its scripted model with a tracer, approve the first share and refuse the
 * second (as the demo's embedded user does), and return the recorded spans as a tree of text. `wire` is handed to
 * `runAgentLoop` as it is.
 */
export async function traceDemoRun(options: { wire?: Wire } = {}): Promise<string> {
  // Spans kept in memory so they can be printed; a service exports them to its collector instead.
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('tracing-sample');

  const server = await startScriptedServer({ turns: demoScript(DEMO_PROMPT) });
  try {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: DEMO_PROMPT }];
    const base = {
      client: server.client(),
      body: { model: 'scripted-demo-model', messages },
      tools: sampleTools(),
      // The scripted model answers on either wire; without one, runAgentLoop picks it from the base URL.
      ...(options.wire && { wire: options.wire }),
    };
    let result: RunAgentResponse = await runAgentLoop({ ...base, tracer });
    const answers: Decision[] = [{ approve: true }, { approve: false, reason: 'Only Alex, please' }];
    while (result.stopReason === 'interactive') {
      const decisions = Object.fromEntries(
        result.state.pending.map((pending) => [pending.call.id, answers.shift() ?? { approve: false }]),
      );
      // The resumed run continues the trace through `state.traceparent`.
      result = await runAgentLoop({ ...base, tracer, resumeFrom: result.state, decisions });
    }
    return spanTree(exporter.getFinishedSpans());
  } finally {
    await server.close();
    await provider.shutdown();
  }
}

/** Attributes left out of the printed tree: implied by the span's name, or different on every run. */
const HIDDEN = new Set(['gen_ai.operation.name', 'gen_ai.response.time_to_first_chunk']);

/**
 * Spans as an indented tree, children in the order they ended (the order of the run, whatever the clock's
 * resolution), each with its attributes and error status. Span ids and times are left out, so the text is the
 * same on every run.
 */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const traces = new Set(spans.map((span) => span.spanContext().traceId)).size;
  const lines = [`${spans.length} spans in ${traces} trace${traces === 1 ? '' : 's'}`];
  const walk = (parent: string | undefined, indent: string) => {
    const kids = children.get(parent) ?? [];
    kids.forEach((span, i) => {
      const last = i === kids.length - 1;
      const below = indent + (last ? '   ' : '│  ');
      const details = below + (children.has(span.spanContext().spanId) ? '│  ' : '   ');
      lines.push(`${indent}${last ? '└─' : '├─'} ${span.name}`);
      for (const [key, value] of Object.entries(span.attributes)) {
        if (!HIDDEN.has(key)) lines.push(`${details}${key}: ${JSON.stringify(value)}`);
      }
      if (span.status.code === SpanStatusCode.ERROR)
        lines.push(`${details}status: ERROR ${JSON.stringify(span.status.message ?? '')}`);
      walk(span.spanContext().spanId, below);
    });
  };
  walk(undefined, '');
  return lines.join('\n');
}
