/**
 * Question: does the cost of a turn grow with the length of the run faster than the floor's?
 * One 300-turn run with 2 KB tool results; CPU per turn over the first and the last 30 turns.
 * Budget (DESIGN §8): growth no faster than the floor's.
 */
import { runAgentLoop } from '../src/run-agent-loop';
import { median, report, startBenchServer } from './lib/harness';
import { floorLoop } from './lib/floor-loop';
import { lookupDefinition, lookupSchema, lookupText } from './lib/lookup-tool';

const TURNS = 300;
const WINDOW = 30;
const RESULT_SIZE = 2048;
const ROUNDS = 3;

export async function historyGrowth(): Promise<void> {
  const server = await startBenchServer();
  const floor = (turns: number) => (onTurn: () => void) =>
    floorLoop({
      client: server.client,
      model: `bench-${turns}-1`,
      tools: [lookupSchema],
      maxTurns: turns + 1,
      onTurn,
      run: (_n, args) => lookupText(String(args.key), RESULT_SIZE),
    });
  const agent = (turns: number) => (onTurn: () => void) =>
    runAgentLoop({
      client: server.client,
      body: { model: `bench-${turns}-1`, messages: [{ role: 'user', content: 'Look things up.' }] },
      tools: [lookupDefinition(RESULT_SIZE)],
      maxRunAgentTimes: turns + 1,
      maxConsecutiveToolTurns: 0,
      onAfterToolCall: onTurn,
    });
  try {
    // Warm the JIT on both paths first, or the first turns measured carry the compilation.
    await perTurnCpu(floor(60));
    await perTurnCpu(agent(60));
    const floorRuns: number[][] = [];
    const agentRuns: number[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      floorRuns.push(await perTurnCpu(floor(TURNS)));
      agentRuns.push(await perTurnCpu(agent(TURNS)));
    }
    const floorTurns = medianPerTurn(floorRuns);
    const agentTurns = medianPerTurn(agentRuns);
    const first = (turns: number[]) => median(turns.slice(0, WINDOW));
    const last = (turns: number[]) => median(turns.slice(-WINDOW));
    console.log(
      `history growth: ${ROUNDS} runs of ${TURNS} turns each, ${RESULT_SIZE} B tool results, CPU per turn (median of the first / last ${WINDOW} turns)`,
    );
    report('floor, first turns', first(floorTurns) / 1000, 'ms');
    report('floor, last turns', last(floorTurns) / 1000, 'ms');
    report('agentcall, first turns', first(agentTurns) / 1000, 'ms', first(floorTurns) / 1000);
    report('agentcall, last turns', last(agentTurns) / 1000, 'ms', last(floorTurns) / 1000);
    // Growth as added cost per turn of history: the slope, so a cheaper start does not read as faster growth.
    const slope = (turns: number[]) => (last(turns) - first(turns)) / (TURNS - WINDOW);
    report('floor, cost added per turn of history', slope(floorTurns), 'µs');
    report('agentcall, cost added per turn of history', slope(agentTurns), 'µs', slope(floorTurns));
  } finally {
    server.stop();
  }
}

/** Per turn index, the median over runs. */
function medianPerTurn(runs: number[][]): number[] {
  const length = Math.min(...runs.map((r) => r.length));
  return Array.from({ length }, (_, i) => median(runs.map((r) => r[i])));
}

async function perTurnCpu(run: (onTurn: () => void) => Promise<unknown>): Promise<number[]> {
  const turns: number[] = [];
  let last = process.cpuUsage();
  await run(() => {
    const used = process.cpuUsage(last);
    turns.push(used.user + used.system);
    last = process.cpuUsage();
  });
  return turns;
}

if (require.main === module) void historyGrowth();
