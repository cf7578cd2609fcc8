/**
 * Question: what does one agent step cost in CPU, next to the floor (a hand-written loop over the bare
 * openai SDK)? One tool call per turn, a zero-latency scripted model in another process. Single runs are timed in
 * blocks (see {@link measureBlocks}); ratios are of the median runs, with a bootstrap 95% interval.
 * Budget (DESIGN §8): ≤ 1.25× the floor per step, decorated tool included, and ≥ 0.95× the floor's throughput; with OpenTelemetry's no-op tracer
 * (a tracer but no provider registered) within 5% of the same run without a tracer.
 */
import { trace } from '@opentelemetry/api';
import { runAgentLoop } from '../src/run-agent-loop';
import { RunTracing } from '../src/agentCall/events/run-tracing';
import { runTool } from '../src/toolCall/run-tool';
import type { ToolDefinition } from '../src/toolCall/type';
import type { AgentTracer } from '../src/agentCall/type';
import { median, report, startBenchServer } from './lib/harness';
import { mean, measureBlocks } from './lib/per-run-samples';
import { msPerStep, reportVersus } from './lib/step-ratios';
import { floorLoop } from './lib/floor-loop';
import { lookupDefinition, lookupSchema, lookupText } from './lib/lookup-tool';
import { decoratedLookupTools } from './lib/decorated-lookup';

const TURNS = 10;
const STEPS_PER_RUN = TURNS + 1;
const BLOCKS = { cycles: 200, blockRuns: 5, seed: 17 };
/** Cost ratio the budget allows: ≥ 0.95× the floor's throughput is ≤ 1 / 0.95 its CPU per step. */
const DECORATED_BUDGET = 1 / 0.95;

export async function stepOverhead(): Promise<void> {
  const server = await startBenchServer();
  const model = `bench-${TURNS}-1`;
  const handWritten = [lookupDefinition(64)];
  const decorated = decoratedLookupTools(64);
  // No provider is registered, so this is OpenTelemetry's no-op tracer: what a service pays before it exports.
  const noopTracer = trace.getTracer('bench');
  const agentcall = (tools: typeof handWritten, tracer?: AgentTracer) => () =>
    runAgentLoop({
      client: server.client,
      body: { model, messages: [{ role: 'user', content: 'Look things up.' }] },
      tools,
      maxRunAgentTimes: 100,
      maxConsecutiveToolTurns: 0,
      ...(tracer && { tracer }),
    });
  try {
    const variants = {
      floor: () =>
        floorLoop({
          client: server.client,
          model,
          tools: [lookupSchema],
          maxTurns: 100,
          run: (_n, args) => lookupText(String(args.key), 64),
        }),
      hand: agentcall(handWritten),
      decorated: agentcall(decorated),
      traced: agentcall(decorated, noopTracer),
    };
    // Warm every path (JIT, sockets) before measuring.
    await measureBlocks(variants, { ...BLOCKS, cycles: 10 });
    const samples = await measureBlocks(variants, BLOCKS);
    const perStep = (key: keyof typeof variants) => msPerStep(samples[key], STEPS_PER_RUN);
    const kept = samples.floor.length;
    console.log(
      `step overhead: ${kept} runs of ${STEPS_PER_RUN} model turns per variant (${BLOCKS.cycles} cycles of blocks ` +
        `of ${BLOCKS.blockRuns} runs, the first of each block discarded); CPU per step of the median run`,
    );
    report('floor (bare openai SDK loop)', perStep('floor'), 'ms');
    const versus = (label: string, key: keyof typeof variants, baseline: keyof typeof variants) =>
      reportVersus(label, samples[key], samples[baseline], STEPS_PER_RUN);
    versus('agentcall, hand-written tool', 'hand', 'floor');
    const high = versus('agentcall, decorated tool', 'decorated', 'floor');
    console.log(
      `  budget: decorated ≥ 0.95× the floor's throughput (cost ≤ ${DECORATED_BUDGET.toFixed(3)}×): ` +
        (high <= DECORATED_BUDGET ? 'met, at the 95% bound' : 'not shown at the 95% bound'),
    );
    console.log('  next to the decorated tool without a tracer (budget: ≤ 1.05×):');
    versus('agentcall, decorated tool, no-op tracer', 'traced', 'decorated');
    // The median leaves out the rare run that pays for a major GC; the mean counts every one.
    const byMean = (key: keyof typeof variants) => (mean(samples[key]) / mean(samples.floor)).toFixed(3);
    console.log(
      `  mean run instead of the median: hand-written ${byMean('hand')}× the floor, decorated ${byMean('decorated')}×`,
    );
    // The work each variant adds, timed alone, says what it costs without the rest of the run around it.
    const perRun = await noopTracerMicrosPerRun(noopTracer, model);
    report('no-op tracer alone, per run', perRun * 1000, 'ns');
    console.log(`    ${((perRun / median(samples.decorated)) * 100).toFixed(3)}% of one decorated run`);
    const signal = await followedSignalMicros();
    report('a fresh signal with one abort listener', signal * 1000, 'ns');
    console.log(
      `    what a request given a signal pays for it: ${((signal / (perStep('hand') * 1000)) * 100).toFixed(2)}% of a step`,
    );
    const added = (await runToolMicros(decorated)) - (await runToolMicros(handWritten));
    report('decorated over hand-written runTool, per call', added * 1000, 'ns');
    console.log(`    ${((added / (perStep('decorated') * 1000)) * 100).toFixed(2)}% of one decorated step`);
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
  return microsPerCall(() => runTool({ call, messages: [], tools }), 50_000);
}

/**
 * CPU microseconds of a fresh `AbortController` whose signal gets one abort listener, as the openai SDK adds to the
 * signal of every request it is given: what a run that can be aborted pays per request, garbage included.
 */
function followedSignalMicros(): Promise<number> {
  const onAbort = () => undefined;
  const once = () => {
    const controller = new AbortController();
    controller.signal.addEventListener('abort', onAbort, { once: true });
    return controller;
  };
  return microsPerCall(once, 100_000);
}

/** CPU microseconds a no-op tracer adds to one run: starting the run's span and asking for its observer. */
function noopTracerMicrosPerRun(tracer: AgentTracer, model: string): Promise<number> {
  const once = () => {
    const tracing = new RunTracing(tracer, model, 'openai', undefined, false);
    return tracing.observer();
  };
  return microsPerCall(once, 200_000);
}

/** CPU microseconds per call of `fn` over `n` calls, after `n / 10` to warm it; a promise is awaited. */
async function microsPerCall(fn: () => unknown, n: number): Promise<number> {
  // A synchronous `fn` is not awaited: an await per call would cost more than a no-op tracer's work.
  const calls = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const out = fn();
      if (out instanceof Promise) await out;
    }
  };
  await calls(n / 10);
  const start = process.cpuUsage();
  await calls(n);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

if (require.main === module) void stepOverhead();
