/**
 * Question: does the cost of a turn grow with the length of the run faster than the floor's?
 * One 300-turn run with 2 KB tool results; CPU per turn over the first and the last 30 turns.
 * Budget (DESIGN §8): growth no faster than the floor's.
 */
import { runAgentLoop } from '../src/agentCall';
import { median, report, startBenchServer } from './lib/harness';
import { floorLoop } from './lib/floor-loop';
import { lookupDefinition, lookupSchema, lookupText } from './lib/lookup-tool';

const TURNS = 300;
const WINDOW = 30;
const RESULT_SIZE = 2048;

export async function historyGrowth(): Promise<void> {
  const server = await startBenchServer();
  const model = `bench-${TURNS}-1`;
  try {
    const floorTurns = await perTurnCpu((onTurn) =>
      floorLoop({ client: server.client, model, tools: [lookupSchema], maxTurns: TURNS + 1, onTurn, run: (_n, args) => lookupText(String(args.key), RESULT_SIZE) }),
    );
    const agentTurns = await perTurnCpu((onTurn) =>
      runAgentLoop({
        client: server.client,
        body: { model, messages: [{ role: 'user', content: 'Look things up.' }] },
        tools: [lookupDefinition(RESULT_SIZE)],
        maxRunAgentTimes: TURNS + 1,
        maxConsecutiveToolTurns: 0,
        onAfterToolCall: onTurn,
      }),
    );
    const growth = (turns: number[]) => median(turns.slice(-WINDOW)) / median(turns.slice(1, WINDOW + 1));
    console.log(`history growth: one run of ${TURNS} turns, ${RESULT_SIZE} B tool results, CPU per turn (median of ${WINDOW})`);
    report('floor, first turns', median(floorTurns.slice(1, WINDOW + 1)) / 1000, 'ms');
    report('floor, last turns', median(floorTurns.slice(-WINDOW)) / 1000, 'ms');
    report('agentcall, first turns', median(agentTurns.slice(1, WINDOW + 1)) / 1000, 'ms', median(floorTurns.slice(1, WINDOW + 1)) / 1000);
    report('agentcall, last turns', median(agentTurns.slice(-WINDOW)) / 1000, 'ms', median(floorTurns.slice(-WINDOW)) / 1000);
    report('floor growth (last / first)', growth(floorTurns), '×');
    report('agentcall growth (last / first)', growth(agentTurns), '×', growth(floorTurns));
  } finally {
    server.stop();
  }
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
