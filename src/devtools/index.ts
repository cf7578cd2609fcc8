/**
 * `agentcall/devtools`: a local page that shows runs as they happen and steers them (approve, reject, cancel),
 * over the runs of an `AgentRuns` queue or of an in-process recorder. A development tool: nothing of it runs
 * unless it is imported and started. It loads no queue package: the queue's source is `agentcall/devtools/queue`.
 */
export { startDevtools } from './server';
export type { Devtools, DevtoolsOptions } from './server';
export { createRunRecorder } from './sources/recorder';
export type { RecorderHooks, RunRecorder, RunRecorderOptions } from './sources/recorder';
export { exportRunAsTest } from './export-test';
export type { ExportTestOptions } from './export-test';
export type { RecordedLimits, RecordedRun, RecordedTurn, RunSource } from './source';
export type {
  DevtoolsRunStatus,
  PendingView,
  RequestExchange,
  RequestItem,
  RunPage,
  RunSummary,
  ShownText,
  StatusItem,
  TimelineItem,
  ToolItem,
} from './types';
