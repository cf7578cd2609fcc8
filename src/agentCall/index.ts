export { runAgentLoop } from './run-agent-loop';
export type * from './type';
export type { Decision, PendingCall, RunState } from './run-state';
