/**
 * Question: what does one agent step cost in CPU, next to the floor (a hand-written loop over the bare
 * openai SDK)? One tool call per turn, a zero-latency scripted model in another process.
 * Budget (DESIGN §8): ≤ 1.25× the floor per step, decorated tool included; with OpenTelemetry's no-op tracer
 * (a tracer but no provider registered) within 5% of the same run without a tracer.
 */
import { trace } from '@opentelemetry/api';
import { runAgentLoop } from '../src/agentCall/run-agent-loop';
import { RunTracing } from '../src/agentCall/run-tracing';
import type { RunAgentResponse } from '../src/agentCall/type';
import { runTool } from '../src/toolCall/run-tool';
import type { ToolDefinition } from '../src/toolCall/type';
import type { AgentTracer } from '../src/agentCall/type';
import { compare, cpuMicros, measureRounds, median, pairedRatio, report, startBenchServer } from './lib/harness';
import { floorLoop } from './lib/floor-loop';
import { lookupDefinition, lookupSchema, lookupText } from './lib/lookup-tool';
import { decoratedLookupTools } from './lib/decorated-lookup';

const TURNS = 10;
const RUNS = 100;
const ROUNDS = 9;

export async function stepOverhead(): Promise<void> {
  const server = await startBenchServer();
  const model = `bench-${TURNS}-1`;
  const steps = RUNS * (TURNS + 1);
  const handWritten = [lookupDefinition(64)];
  const decorated = decoratedLookupTools(64);
  // No provider is registered, so this is OpenTelemetry's no-op tracer: what a service pays before it exports.
  const noopTracer = trace.getTracer('bench');
  const agentcall = (tools: typeof handWritten, tracer?: AgentTracer) => () =>
    cpuMicros(async () => {
      for (let i = 0; i < RUNS; i++) {
        await runAgentLoop({
          client: server.client,
          body: { model, messages: [{ role: 'user', content: 'Look things up.' }] },
          tools,
          maxRunAgentTimes: 100,
          maxConsecutiveToolTurns: 0,
          ...(tracer && { tracer }),
        });
      }
    });
  try {
    const floor = () =>
      cpuMicros(async () => {
        for (let i = 0; i < RUNS; i++) {
          await floorLoop({
            client: server.client,
            model,
            tools: [lookupSchema],
            maxTurns: 100,
            run: (_n, args) => lookupText(String(args.key), 64),
          });
        }
      });
    const variants = {
      floor,
      hand: agentcall(handWritten),
      decorated: agentcall(decorated),
      traced: agentcall(decorated, noopTracer),
    };
    // Warm every path (JIT, sockets) before measuring.
    await compare(variants, 2);
    const samples = await measureRounds(variants, ROUNDS);
    const result = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<
      keyof typeof variants,
      number
    >;
    console.log(`step overhead: ${RUNS} runs × ${TURNS + 1} model turns, median of ${ROUNDS}, CPU per step`);
    report('floor (bare openai SDK loop)', result.floor / steps / 1000, 'ms');
    report('agentcall, hand-written tool', result.hand / steps / 1000, 'ms', result.floor / steps / 1000);
    report('agentcall, decorated tool', result.decorated / steps / 1000, 'ms', result.floor / steps / 1000);
    console.log('  next to the decorated tool without a tracer (budget: ≤ 1.05×):');
    report(
      'agentcall, decorated tool, no-op tracer',
      result.traced / steps / 1000,
      'ms',
      result.decorated / steps / 1000,
    );
    console.log("  the same, as the median of each round's own ratio:");
    console.log(
      `    hand-written ${pairedRatio(samples.hand, samples.floor).toFixed(2)}× the floor, decorated ` +
        `${pairedRatio(samples.decorated, samples.floor).toFixed(2)}×, no-op tracer ` +
        `${pairedRatio(samples.traced, samples.decorated).toFixed(2)}× the decorated tool`,
    );
    // Whole runs in one process differ by a few percent from round to round; the work each variant adds, timed
    // alone, says what it really costs.
    const perRun = noopTracerMicrosPerRun(noopTracer, model);
    report('no-op tracer alone, per run', perRun * 1000, 'ns');
    console.log(`    ${((perRun / (result.decorated / RUNS)) * 100).toFixed(3)}% of one decorated run`);
    const added = (await runToolMicros(decorated)) - (await runToolMicros(handWritten));
    report('decorated over hand-written runTool, per call', added * 1000, 'ns');
    console.log(`    ${((added / (result.decorated / steps)) * 100).toFixed(2)}% of one decorated step`);
  } finally {
    server.stop();
  }
}

/** CPU microseconds one `runTool` of the lookup call costs with these tools: parsing, validation, execute, result. */
async function runToolMicros(tools: ToolDefinition[]): Promise<number> {
  const call = {
    id: 'call_1',
    type: 'function' as const,
    function: { name: 'lookup', arguments: '{"key":"k1","slot":0}' },
  };
  const n = 50_000;
  for (let i = 0; i < n / 10; i++) await runTool({ call, messages: [], tools });
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await runTool({ call, messages: [], tools });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

/** CPU microseconds a no-op tracer adds to one run: starting the run's span, wrapping the props, ending the span. */
function noopTracerMicrosPerRun(tracer: AgentTracer, model: string): number {
  const props = { body: { model, messages: [] }, tools: [], tracer };
  const result = { stopReason: 'done', state: { v: 1 } } as unknown as RunAgentResponse;
  const once = () => {
    const tracing = new RunTracing(tracer, model, undefined);
    tracing.wrap(props);
    return tracing.end(result);
  };
  const n = 200_000;
  for (let i = 0; i < n / 10; i++) once();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) once();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

if (require.main === module) void stepOverhead();
