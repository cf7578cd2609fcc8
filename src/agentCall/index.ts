export { runAgentLoop } from './run-agent-loop';
export type * from './type';
