/**
 * `agentcall/internal`: what agentcall's own adapters share with the core and users do not need.
 *
 * @internal Not part of the public API: names here may change in any release. Import `agentcall` instead.
 */
export { TOOL_NAME_PATTERN } from './constants';
export { toModelText } from './text/model-text';
export { runObservedLoop } from './output/run-agent-loop';
export { isEventStream } from './llm/event-stream-check';
export type { RunEventMap, RunEventName, RunObserver, RunScope } from './agentCall/run-events';
export { describeContent } from './definitions/results/describe-content';
