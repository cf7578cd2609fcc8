import type { AgentRuns, StartRunOptions } from '../../src/bullmq';

/** Start a run with `body` and wait for it; throws unless it completed, after `turns` turns when given. */
export async function queuedRun(runs: AgentRuns, body: StartRunOptions['body'], turns?: number): Promise<void> {
  const { runId } = await runs.start({ body });
  const record = await runs.wait(runId, { timeoutMs: 60_000 });
  if (record.status !== 'completed' || (turns !== undefined && record.state.turn !== turns))
    throw new Error(`run ${runId}: ${record.status} after ${record.state.turn} turns`);
}
