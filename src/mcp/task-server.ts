import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The `tools/call` answers that started a task, told apart from tool results by identity. */
const startedTasks = new WeakSet<object>();

/**
 * Mark `result` as the answer to a `tools/call` that started a task (`{ task }` in the 2025-11-25 era).
 *
 * @internal
 */
export function startedTask<T extends object>(result: T): T {
  startedTasks.add(result);
  return result;
}

/** What a `tools/call` answer stands in as while the SDK checks it: the shape of an empty tool result. */
const STAND_IN: Result = { content: [] };

/**
 * SDK v2's `Server`, letting a `tools/call` answer with a task: the SDK checks every `tools/call` answer as a tool
 * result, and a 2025-11-25 `CreateTaskResult` (`{ task }`) is not one. The request is still checked as the SDK
 * checks it; only an answer marked with {@link startedTask} passes as it is.
 *
 * @internal
 */
export class TaskServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    // The task each call started, by the call's context (one per request).
    const started = new WeakMap<ServerContext, Result>();
    const checked = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (!startedTasks.has(result)) return result;
      started.set(ctx, result);
      return STAND_IN;
    });
    return async (request, ctx) => {
      const result = await checked(request, ctx);
      return started.get(ctx) ?? result;
    };
  }
}
