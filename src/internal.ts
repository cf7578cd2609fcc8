/**
 * `agentcall/internal`: what agentcall's own adapters share with the core and users do not need.
 *
 * @internal Not part of the public API: names here may change in any release. Import `agentcall` instead.
 */
export {
  DEFAULT_MAX_ARGS_DEPTH,
  DEFAULT_MAX_ARGS_KEYS,
  DEFAULT_MAX_ARGS_LENGTH,
  DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS,
  DEFAULT_MAX_MODEL_TEXT_CHARS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RUN_AGENT_TIMES,
  DEFAULT_MAX_SSE_LINE_BYTES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  DEFAULT_MAX_VALIDATION_LINES,
  MAX_ERROR_TEXT_LENGTH,
  TOOL_NAME_PATTERN,
} from './constants';
export { SCHEMA_PROFILES } from './definitions/profiles/schema-profile';
export { isToolResult } from './definitions/results/tool-result';
export { mapToolReturn } from './definitions/results/map-tool-return';
export { toolMethodsOf } from './definitions/tool-methods-of';
export type { ToolMethod, ToolMethodParameter } from './definitions/tool-methods-of';
export { RUN_STATE_VERSION } from './agentCall/state/run-state';
export { maskSecrets } from './text/error-text';
export { firstLineSafeText, modelSafeText } from './text/model-text';
export { estimateTokens } from './llm/tokens';
export { isRetryableModelError } from './llm/retryable-error';
export { toModelText } from './text/model-text';
export { runObservedLoop } from './run-agent-loop';
export { isEventStream } from './llm/stream/event-stream-check';
export type { RunEventMap, RunEventName, RunObserver, RunScope, WithRunObservers } from './agentCall/events/run-events';
export { RUN_OBSERVERS } from './agentCall/events/run-events';
export { signRunState } from './agentCall/state/run-state-signature';
export { checkDecisions } from './agentCall/state/check-decisions';
export { describeContent } from './definitions/results/describe-content';
export { getMetadataStorage } from './metadata/metadata-storage';
export { classChain, classOf } from './metadata/class-chain';
export { agentOwnTools, agentToolOf } from './definitions/agent-tool-of';
export type { AgentHost } from './definitions/agent-tool-of';
