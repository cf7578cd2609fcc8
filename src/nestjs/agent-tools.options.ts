import type { SchemaProfile, ToolsFromOptions } from '../index';

/** Options of `AgentToolsModule.forRoot`. */
export type AgentToolsModuleOptions = ToolsFromOptions & {
  /** Register the module globally so `ToolRegistry` injects anywhere (default true). */
  global?: boolean;
  /**
   * Log at startup, with Nest's `Logger` (context `AgentToolsModule`), every keyword the schema profile leaves
   * out of each tool's schema (what `schemaReport` lists): `true` for the module's `profile`, or the profiles to
   * report on. Default: no report.
   */
  schemaReport?: boolean | SchemaProfile | readonly SchemaProfile[];
};

/** The injection token of the module's options. */
export const AGENT_TOOLS_OPTIONS = Symbol.for('agentcall.nestjs.options');
