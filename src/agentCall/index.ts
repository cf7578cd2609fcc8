export { runAgentLoop } from './run-core-loop';
export type * from './type';
export type { Decision, PendingCall, RunSpent, RunState } from './state/run-state';
export type { ModelPrice, RunBudget } from './budget/budget-types';
