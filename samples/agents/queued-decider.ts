/**
 * The master agent on the queue, decider process: approves every call a sub-agent waits on (keyed by its path from
 * the root), then waits for the run's end. `RUNS_SECRET=… node queued-decider.js <runId>`
 */
import { connect, openRuns } from '../queue/runs';
import { approveAll } from './master-agent';

async function main(runId: string): Promise<void> {
  const connection = connect();
  const runs = openRuns(connection);
  const run = await runs.get(runId);
  if (run.status !== 'waiting') throw new Error(`run ${runId} is ${run.status}, not waiting`);
  const decisions = approveAll(run.state);
  console.log(`approving ${Object.keys(decisions).join(', ')}`);
  const token = await runs.resumeToken(runId);
  await runs.decide(runId, decisions, { token });
  const done = await runs.wait(runId, { timeoutMs: 60_000 });
  console.log(`[${done.status}] ${done.text ?? ''}`);
  await runs.close();
  connection.disconnect();
}

void main(process.argv[2] ?? '');
