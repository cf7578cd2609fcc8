import type { ToolDefinition } from '../index';
import type { AgentRunsOptions } from './agent-runs-options';
import type { RunSetup, RunWorkerOptions } from './types';

/** Where the Nest worker's tools come from: the application's `ToolRegistry`. */
export type ToolSource = { getTools(): ToolDefinition[] };

/** The worker `AgentRunsModule` starts: `setup` gives each run its client; tools default to the registry's. */
export type AgentRunsModuleWorker = Omit<RunWorkerOptions, 'setup'> & {
  setup: (
    run: { runId: string; meta?: unknown },
    registry: ToolSource,
  ) => Promise<Omit<RunSetup, 'tools'> & { tools?: ToolDefinition[] }>;
};

/** Options of `AgentRunsModule.forRoot`. */
export type AgentRunsModuleOptions = AgentRunsOptions & {
  /** Register the module globally (default true). */
  global?: boolean;
  /** Run a worker in this process (omit it in API-only processes). */
  worker?: AgentRunsModuleWorker;
};
