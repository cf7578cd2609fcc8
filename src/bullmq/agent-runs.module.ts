import type { DynamicModule } from '@nestjs/common';
import type * as NestEntry from '../nestjs';
import type { ToolDefinition } from '../index';
import { AgentRuns } from './agent-runs';
import type { AgentRunsOptions, RunSetup, RunWorkerOptions } from './types';

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

/** Closes the runs (and the worker, finishing its jobs in hand) when the application shuts down. */
class AgentRunsShutdown {
  constructor(private readonly runs: AgentRuns) {}

  onApplicationShutdown(): Promise<void> {
    return this.runs.close();
  }
}

/**
 * Registers an injectable `AgentRuns` and, with `worker`, a worker whose tools come from `ToolRegistry`
 * (import `AgentToolsModule.forRoot()` too). Nest is loaded only when this is called, so `agentcall/bullmq`
 * works without it.
 *
 * @example
 * @Module({
 *   imports: [
 *     AgentToolsModule.forRoot(),
 *     AgentRunsModule.forRoot({
 *       connection: { host: '127.0.0.1', port: 6379 },
 *       secret: process.env.RUNS_SECRET,
 *       worker: { concurrency: 4, setup: async () => ({ client: new OpenAI() }) },
 *     }),
 *   ],
 * })
 * export class AppModule {}
 */
export class AgentRunsModule {
  static forRoot(options: AgentRunsModuleOptions): DynamicModule {
    const { global = true, worker, ...runsOptions } = options;
    const { ToolRegistry } = loadNestEntry();
    return {
      module: AgentRunsModule,
      global,
      providers: [
        {
          provide: AgentRuns,
          inject: [ToolRegistry],
          useFactory: (registry: ToolSource) => {
            const runs = new AgentRuns(runsOptions);
            if (worker) {
              const { setup, ...workerOptions } = worker;
              runs.worker({
                ...workerOptions,
                setup: async (run) => {
                  const given = await setup(run, registry);
                  return { ...given, tools: given.tools ?? registry.getTools() };
                },
              });
            }
            return runs;
          },
        },
        {
          provide: AgentRunsShutdown,
          inject: [AgentRuns],
          useFactory: (runs: AgentRuns) => new AgentRunsShutdown(runs),
        },
      ],
      exports: [AgentRuns],
    };
  }
}

/** `agentcall/nestjs`, loaded on demand: a plain `import` would make every user of this entry install Nest. */
function loadNestEntry(): typeof NestEntry {
  // This module's own `require`, so '../nestjs' resolves next to this file (in Node and under jest).
  const load: NodeJS.Require = require;
  return load('../nestjs') as typeof NestEntry;
}
