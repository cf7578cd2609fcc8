export { AgentcallError } from './agentcall.error';
export { ToolDefinitionError } from './tool-definition.error';
export type { ToolDefinitionProblem } from './tool-definition.error';
export { EmptyModelResponseError } from './empty-model-response.error';
export { StreamIdleTimeoutError } from './stream-idle-timeout.error';
export { UnsupportedToolScopeError } from './unsupported-tool-scope.error';
export { RunStateVersionError } from './run-state-version.error';
