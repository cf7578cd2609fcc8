import type { ToolsFromOptions } from '../index';

/** Options of `AgentToolsModule.forRoot`. */
export type AgentToolsModuleOptions = ToolsFromOptions & {
  /** Register the module globally so `ToolRegistry` injects anywhere (default true). */
  global?: boolean;
};

/** The injection token of the module's options. */
export const AGENT_TOOLS_OPTIONS = Symbol.for('agentcall.nestjs.options');
