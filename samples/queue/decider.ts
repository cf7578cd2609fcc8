/**
 * The decider process: approves (or rejects) what a waiting run waits on, then waits for its end.
 * `RUNS_SECRET=… node decider.js <runId> approve|reject`
 */
import type { Decision } from '../../src';
import { connect, openRuns } from './runs';

async function main(runId: string, approve: boolean): Promise<void> {
  const connection = connect();
  const runs = openRuns(connection);
  const run = await runs.get(runId);
  if (run.status !== 'waiting') throw new Error(`run ${runId} is ${run.status}, not waiting`);
  const decisions: Record<string, Decision> = {};
  for (const { call } of run.state.pending) {
    console.log(`deciding on ${call.function.name} ${call.function.arguments}`);
    decisions[call.id] = approve ? { approve: true } : { approve: false, reason: 'Refused by an operator' };
  }
  // The token is the app's to hand to whoever may decide: reads (`get`, `events`) never carry it.
  const token = await runs.resumeToken(runId);
  await runs.decide(runId, decisions, { token });
  const done = await runs.wait(runId, { timeoutMs: 60_000 });
  console.log(`[${done.status}] ${done.text ?? ''}`);
  await runs.close();
  connection.disconnect();
}

void main(process.argv[2] ?? '', process.argv[3] !== 'reject');
