/**
 * `agentcall/nestjs`: discover `@Tool` providers in a NestJS application and inject them as a registry.
 * `@nestjs/common` and `@nestjs/core` (11 or 12) are optional peer dependencies; the core never imports them.
 */
export { AgentToolsModule } from './agent-tools.module';
export type { AgentToolsModuleAsyncOptions } from './agent-tools.module';
export { AGENT_TOOLS_OPTIONS } from './agent-tools.options';
export type { AgentToolsModuleOptions } from './agent-tools.options';
export { ToolRegistry } from './tool-registry';
export { UnsupportedToolScopeError } from '../errors/unsupported-tool-scope.error';
