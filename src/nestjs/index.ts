/**
 * `agentcall/nestjs`: discover `@Tool` providers in a NestJS application and inject them as a registry; the
 * application's guards, interceptors, pipes and exception filters run around every tool call.
 * `@nestjs/common` and `@nestjs/core` (11 or 12) are optional peer dependencies; the core never imports them.
 */
export { AgentToolsModule } from './agent-tools.module';
export type { AgentToolsModuleAsyncOptions } from './agent-tools.module';
export { AGENT_TOOLS_OPTIONS } from './agent-tools.options';
export type { AgentToolsModuleOptions } from './agent-tools.options';
export { AGENT_TOOL_CONTEXT } from './agent-tool-context';
export type { AgentToolContextType } from './agent-tool-context';
export { ToolRegistry } from './tool-registry';
export { UnsupportedToolScopeError } from './unsupported-tool-scope.error';
export { AgentRunsModule } from './agent-runs.module';
// Its options types (AgentRunsModuleOptions, AgentRunsModuleWorker, ToolSource) are agentcall/bullmq's: one entry a name.
