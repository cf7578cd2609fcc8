export { runAgentLoop } from './run-agent-loop';
export type * from './type';
export type { Decision, PendingCall, RunSpent, RunState } from './run-state';
export type { ModelPrice, RunBudget } from './budget-types';
