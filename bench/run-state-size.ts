/**
 * Question: does a paused run's state stay the history plus a fixed overhead, or does it grow a copy per pause?
 * One 300-turn run whose tool needs approval on every turn: it pauses 300 times, each time serialised to JSON and
 * resumed from the parsed copy with an approval. Sizes of the paused state and of its history alone, in bytes.
 * Budget (DESIGN §10): the overhead (state minus history) stays flat from the first pause to the last.
 */
import { runAgentLoop } from '../src/run-agent-loop';
import type { RunState } from '../src/agentCall/state/run-state';
import type { RunAgentResponse } from '../src/agentCall/type';
import { report, startBenchServer } from './lib/harness';
import { lookupDefinition } from './lib/lookup-tool';

const TURNS = 300;
const RESULT_SIZE = 2048;

export async function runStateSize(): Promise<void> {
  const server = await startBenchServer();
  const tool = { ...lookupDefinition(RESULT_SIZE), needsApproval: true };
  const props = {
    client: server.client,
    body: { model: `bench-${TURNS}-1`, messages: [{ role: 'user' as const, content: 'Look things up.' }] },
    tools: [tool],
    maxRunAgentTimes: TURNS + 1,
    maxConsecutiveToolTurns: 0,
  };
  try {
    const pauses: { state: number; history: number }[] = [];
    let result: RunAgentResponse = await runAgentLoop(props);
    while (result.stopReason === 'interactive') {
      const json = JSON.stringify(result.state);
      pauses.push({ state: bytes(json), history: bytes(JSON.stringify(result.state.messages)) });
      const state = JSON.parse(json) as RunState;
      const decisions = Object.fromEntries(state.pending.map((p) => [p.call.id, { approve: true as const }]));
      result = await runAgentLoop({ ...props, resumeFrom: state, decisions });
    }
    if (result.stopReason !== 'completed' || pauses.length !== TURNS)
      throw new Error(`expected ${TURNS} pauses and a completed run, got ${pauses.length} and ${result.stopReason}`);
    const overhead = pauses.map((p) => p.state - p.history);
    console.log(
      `run state size: one ${TURNS}-turn run, ${RESULT_SIZE} B tool results, approval on every turn (${TURNS} pauses, each resumed from JSON)`,
    );
    for (const at of [1, 100, 200, TURNS]) {
      const pause = pauses[at - 1];
      report(`pause ${at}: history`, pause.history / 1024, 'KB');
      report(`pause ${at}: paused state`, pause.state / 1024, 'KB', pause.history / 1024);
    }
    report('state minus history, first pause', overhead[0], 'B');
    report('state minus history, largest over all pauses', Math.max(...overhead), 'B');
    report('state minus history, last pause', overhead[TURNS - 1], 'B');
  } finally {
    server.stop();
  }
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

if (require.main === module) void runStateSize();
