/**
 * The error a job fails with when it finds that the run store lost writes it had answered (Redis restarted from an
 * AOF that did not hold them yet): BullMQ's retry then claims the run at whatever survived, where the job must not go
 * on from what it believed was saved.
 */
export function lostWritesError(runId: string, detail: string): Error {
  return new Error(`The run store lost writes of run ${runId} (${detail}): retrying`);
}
