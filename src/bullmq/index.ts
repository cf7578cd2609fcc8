/**
 * `agentcall/bullmq`: agent runs as BullMQ jobs on Redis, so any worker advances, resumes or cancels any run.
 */
export { AgentRuns } from './agent-runs';
export { RunWorker } from './run-worker';
export {
  InvalidDecisionsError,
  InvalidRunIdError,
  ResumeTokenError,
  RunNotFoundError,
  RunStartTooLargeError,
  RunWaitTimeoutError,
} from './errors';
export type { ResumeTokenProblem } from './errors';
export { isRetryableModelError } from './retryable';
export { listRuns } from './list-runs';
export type { ListRunsOptions, RunListing } from './list-runs';
export type {
  AgentRunsOptions,
  Decision,
  PendingCall,
  QueuedRunClient,
  RunEvent,
  RunRecord,
  RunSetup,
  RunState,
  RunStatus,
  RunWorkerOptions,
  RunsConnection,
  StartRunOptions,
} from './types';
/** @deprecated Import `AgentRunsModule` from `agentcall/nestjs`. */
export { AgentRunsModule } from './agent-runs.module';
export type { AgentRunsModuleOptions, AgentRunsModuleWorker, ToolSource } from './agent-runs-module-options';
