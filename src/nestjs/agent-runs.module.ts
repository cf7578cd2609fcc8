import type { DynamicModule } from '@nestjs/common';
import type * as QueueEntry from '../bullmq';
import type { AgentRuns, AgentRunsModuleOptions, ToolSource } from '../bullmq';
import { ToolRegistry } from './tool-registry';

/** Closes the runs (and the worker, finishing its jobs in hand) when the application shuts down. */
class AgentRunsShutdown {
  constructor(private readonly runs: AgentRuns) {}

  onApplicationShutdown(): Promise<void> {
    return this.runs.close();
  }
}

/**
 * Registers an injectable `AgentRuns` (of `agentcall/bullmq`) and, with `worker`, a worker whose tools come from
 * `ToolRegistry` (import `AgentToolsModule.forRoot()` too). BullMQ is loaded only when this is called, so
 * `agentcall/nestjs` works without it.
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
    const { AgentRuns } = loadQueueEntry();
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

/** `agentcall/bullmq`, loaded on demand: a plain `import` would make every user of this entry install BullMQ. */
function loadQueueEntry(): typeof QueueEntry {
  // This module's own `require`, so '../bullmq' resolves next to this file (in Node and under jest).
  const load: NodeJS.Require = require;
  return load('../bullmq') as typeof QueueEntry;
}
