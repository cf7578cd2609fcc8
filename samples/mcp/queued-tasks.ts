// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { Ctx, Param, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import type { AgentRuns, QueuedRunClient, RunWorker } from '../../src/bullmq';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp';

/** A report that takes minutes: served as a task, so the client polls instead of holding a request open. */
export class ReportTools {
  @Tool({ description: 'Render the monthly report', task: true })
  async render(@Param('month') month: string, @Ctx() ctx?: ToolExecuteContext): Promise<string> {
    ctx?.progress?.({ progress: 0, message: `rendering ${month}` });
    // A worker that dies mid-call leaves it to another, which calls again with the same key.
    return `Report ${month} rendered (${ctx?.idempotencyKey ?? 'no key'})`;
  }
}

/** Every instance of the endpoint shares the runs' Redis: any of them answers for any task. */
export function reportEndpoint(runs: AgentRuns): McpHttpHandler {
  return createMcpHttpHandler(toolsFrom(new ReportTools()), {
    name: 'reports',
    version: '1.0.0',
    caller: (auth) => auth?.clientId,
    tasks: { runs },
  });
}

/** The worker process: it runs the task tools; a tool call never asks the client `setup` gives. */
export function reportWorker(runs: AgentRuns, client: QueuedRunClient): RunWorker {
  return runs.worker({ setup: async () => ({ client, tools: toolsFrom(new ReportTools()) }) });
}
