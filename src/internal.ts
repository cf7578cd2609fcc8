/**
 * agentcall's internal entry, shared by its own adapters (`agentcall/bullmq`): not a public API, and it may change
 * in any release.
 *
 * @internal
 */
export { runObservedLoop } from './agentCall/run-agent-loop';
export type { RunEventMap, RunEventName, RunObserver, RunScope } from './agentCall/run-events';
