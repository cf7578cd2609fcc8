import { createHash } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { QueuedToolCall, QueuedToolCalls } from './queued-tool-calls';
import { callToolResultOf } from './run-mcp-call';
import { taskResultOf, type ServedTask, type TaskBackend, type TaskCall } from './task-backend';

/** The field of a queued call's `meta` that names its caller. */
const OWNER_FIELD = 'mcpTaskOwner';
/** How long one wait for a task's end lasts before it is made again (a `tasks/result` waits until it ends). */
const WAIT_SLICE_MS = 60_000;

/** Limits of the tasks a server queues. */
export type QueuedTaskLimits = {
  /** The longest a task is kept after it was created, whatever the client asks. */
  maxTtlMs: number;
  /** The server's cap on a result's text (`maxResponseChars`). */
  maxResponseChars?: number;
};

/**
 * The tasks of `@Tool({ task: true })` calls as queued tool calls (`tasks: { runs }`): each runs on a queue's worker
 * and is kept in its Redis, so it outlives this process and any instance sharing the Redis answers for it. The
 * caller's key goes into the call's `meta` as a digest (a caller's key can hold its token): only the same caller
 * reads or cancels it.
 *
 * @internal
 */
export class QueuedTasks implements TaskBackend {
  constructor(
    private readonly runs: QueuedToolCalls,
    private readonly limits: QueuedTaskLimits,
  ) {}

  async start(owner: string, ttlMs: number | undefined, call: TaskCall): Promise<ServedTask | undefined> {
    const kept = Math.min(this.limits.maxTtlMs, ttlMs !== undefined && ttlMs > 0 ? ttlMs : this.limits.maxTtlMs);
    let callId: string;
    try {
      ({ callId } = await this.runs.callTool({
        name: call.tool.schema.function.name,
        ...(call.args !== undefined && { arguments: call.args }),
        meta: { [OWNER_FIELD]: digest(owner) },
        ttlMs: kept,
      }));
    } catch {
      // What failed (the queue's connection, say) is the server's to log, not the client's to read.
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The task could not be queued: try again later');
    }
    return this.get(callId, owner);
  }

  async get(taskId: string, owner: string): Promise<ServedTask | undefined> {
    return this.owned(taskId, owner, await this.runs.getToolCall(taskId));
  }

  async ended(taskId: string, owner: string, signal: AbortSignal): Promise<ServedTask | undefined> {
    let call = await this.runs.getToolCall(taskId);
    if (!this.owned(taskId, owner, call)) return undefined;
    while (call?.status === 'working')
      call = await this.runs.waitToolCall(taskId, { signal, timeoutMs: WAIT_SLICE_MS });
    return this.owned(taskId, owner, call);
  }

  async cancel(taskId: string, owner: string): Promise<ServedTask | undefined> {
    if (!(await this.get(taskId, owner))) return undefined;
    return this.owned(taskId, owner, await this.runs.cancelToolCall(taskId));
  }

  close(): void {
    // The tasks are the queue's: they go on without this server.
  }

  /** `call` as a task, when it is `owner`'s; else `undefined`, as for a call that never was. */
  private owned(taskId: string, owner: string, call: QueuedToolCall | undefined): ServedTask | undefined {
    const meta = call?.meta;
    if (!call || typeof meta !== 'object' || meta === null) return undefined;
    if ((meta as Record<string, unknown>)[OWNER_FIELD] !== digest(owner)) return undefined;
    const task: ServedTask = {
      taskId,
      status: call.status,
      ...(call.statusMessage !== undefined && { statusMessage: call.statusMessage }),
      createdAt: call.createdAt,
      lastUpdatedAt: call.lastUpdatedAt,
      ttlMs: call.ttlMs,
    };
    // The stored outcome becomes a `CallToolResult` as an in-process call's does.
    if (call.status === 'completed' && call.result)
      task.result = taskResultOf(callToolResultOf(call.result, this.limits.maxResponseChars));
    if (call.status === 'failed') task.error = { code: -32603, message: call.error?.message ?? 'the task failed' };
    return task;
  }
}

function digest(owner: string): string {
  return createHash('sha256').update(owner).digest('base64url');
}
