/**
 * `agentcall/bullmq`: agent runs as BullMQ jobs on Redis, so any worker advances, resumes or cancels any run.
 */
export { AgentRuns, DEFAULT_JOB_SLICE_MS, DEFAULT_TURNS_PER_JOB } from './agent-runs';
export { RedisRunStore } from './store/redis-run-store';
export type {
  CancelSubscription,
  CheckpointInput,
  Claimed,
  DecideOutcome,
  NewRun,
  RunEventReader,
  RunStore,
  RunStoreLimits,
  StoredError,
  StoredRun,
} from './store/run-store';
export { runStoreConformance } from './store/run-store-conformance';
export type { ConformanceFramework } from './store/run-store-conformance';
export { RunWorker } from './worker/run-worker';
export {
  InvalidDecisionsError,
  InvalidRunIdError,
  ResumeTokenError,
  RunCancelledError,
  RunNotFoundError,
  RunStartTooLargeError,
  RunWaitTimeoutError,
} from './errors';
export type { ResumeTokenProblem } from './errors';
export { listRuns } from './store/list-runs';
export type { ListRunsOptions, RunListing } from './store/list-runs';
export type { AgentRunsOptions } from './agent-runs-options';
export type {
  CallToolOptions,
  QueuedRunClient,
  RunEvent,
  RunEventData,
  RunRecord,
  RunSetup,
  RunStatus,
  RunWorkerOptions,
  RunsConnection,
  StartRunOptions,
  StoredToolResult,
  ToolCallRecord,
  ToolCallStatus,
} from './types';
export type { AgentRunsModuleOptions, AgentRunsModuleWorker, ToolSource } from './agent-runs-module-options';
