/**
 * Question: over the Responses wire, what does one agent step cost in CPU next to the floor, a hand-written loop over
 * bare `client.responses.create({ stream: true })` ({@link responsesFloorLoop})? One tool call per turn, the
 * zero-latency scripted model in another process serving `POST /v1/responses`, timed as the chat wire's step overhead
 * is (single runs in seeded shuffled blocks, ratios of the median runs with a bootstrap 95% interval).
 * Budget (DESIGN §16): the decorated tool's loop ≥ 0.95× the floor's throughput (cost ≤ 1 / 0.95, within 5%).
 */
import { runAgentLoop } from '../src/run-agent-loop';
import type { ToolDefinition } from '../src/toolCall/type';
import { mean, measureBlocks } from './lib/per-run-samples';
import { report, startBenchServer } from './lib/harness';
import { lookupDefinition, lookupText } from './lib/lookup-tool';
import { decoratedLookupTools } from './lib/decorated-lookup';
import { lookupResponsesTool, responsesFloorLoop } from './lib/responses-floor-loop';
import { msPerStep, reportVersus } from './lib/step-ratios';

const TURNS = 10;
const STEPS_PER_RUN = TURNS + 1;
const BLOCKS = { cycles: 200, blockRuns: 5, seed: 17 };
const DECORATED_BUDGET = 1 / 0.95;

/** `cycles` more than the default narrow the intervals on a busy machine: `node ... responses-step-overhead.js 800`. */
export async function responsesStepOverhead(cycles = BLOCKS.cycles): Promise<void> {
  const blocks = { ...BLOCKS, cycles };
  const server = await startBenchServer();
  const model = `bench-${TURNS}-1`;
  const agentcall = (tools: ToolDefinition[]) => () =>
    runAgentLoop({
      client: server.client,
      wire: 'responses',
      body: { model, messages: [{ role: 'user', content: 'Look things up.' }] },
      tools,
      maxRunAgentTimes: 100,
      maxConsecutiveToolTurns: 0,
    });
  try {
    const variants = {
      floor: () =>
        responsesFloorLoop({
          client: server.client,
          model,
          tools: [lookupResponsesTool],
          maxTurns: 100,
          run: (_n, args) => lookupText(String(args.key), 64),
        }),
      hand: agentcall([lookupDefinition(64)]),
      decorated: agentcall(decoratedLookupTools(64)),
    };
    // Warm every path (JIT, sockets) before measuring.
    await measureBlocks(variants, { ...BLOCKS, cycles: 10 });
    const samples = await measureBlocks(variants, blocks);
    console.log(
      `Responses step overhead: ${samples.floor.length} runs of ${STEPS_PER_RUN} model turns per variant ` +
        `(${cycles} cycles of blocks of ${BLOCKS.blockRuns} runs, the first of each block discarded); ` +
        'CPU per step of the median run',
    );
    report('floor (bare client.responses loop)', msPerStep(samples.floor, STEPS_PER_RUN), 'ms');
    reportVersus('agentcall, hand-written tool', samples.hand, samples.floor, STEPS_PER_RUN);
    const high = reportVersus('agentcall, decorated tool', samples.decorated, samples.floor, STEPS_PER_RUN);
    console.log(
      `  budget: decorated ≥ 0.95× the floor's throughput (cost ≤ ${DECORATED_BUDGET.toFixed(3)}×): ` +
        (high <= DECORATED_BUDGET ? 'met, at the 95% bound' : 'not shown at the 95% bound'),
    );
    // The median leaves out the rare run that pays for a major GC; the mean counts every one.
    const byMean = (runs: number[]) => (mean(runs) / mean(samples.floor)).toFixed(3);
    console.log(
      `  mean run instead of the median: hand-written ${byMean(samples.hand)}× the floor, ` +
        `decorated ${byMean(samples.decorated)}×`,
    );
  } finally {
    server.stop();
  }
}

if (require.main === module) void responsesStepOverhead(Number(process.argv[2]) || undefined);
