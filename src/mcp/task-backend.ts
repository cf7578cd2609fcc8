import type { CallToolResult, RequestId } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../index';
import type { ToolInteractive } from './run-mcp-call';

/** Where a served task is: running, or ended one of three ways. */
export type ServedTaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** One task of a `@Tool({ task: true })` call, as the server tells a client of it. */
export type ServedTask = {
  readonly taskId: string;
  status: ServedTaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  /** How long the task is kept after it was created. */
  readonly ttlMs: number;
  /** The tool's result, once `completed`. */
  result?: CallToolResult;
  /** Why it failed, once `failed`. */
  error?: { code: number; message: string };
};

/** The `tools/call` a task runs. */
export type TaskCall = {
  tool: ToolDefinition;
  /** The JSON-RPC request id of the call that started it. */
  requestId: RequestId;
  args: Record<string, unknown> | undefined;
  /** Who sent the request: the tool's `ctx.caller`, where the task runs in this process. */
  caller: unknown;
};

/**
 * Where a server's tasks run and are kept: in this process (`ServedTasks`) or on a queue (`QueuedTasks`). Each
 * method is for the task's own caller (`owner`) only: another caller's task is not found, as one that never was.
 *
 * @internal
 */
export type TaskBackend = {
  /** Start `call` as a task of `owner`, kept `ttlMs` (held to the server's limit); `undefined` when it is refused. */
  start(owner: string, ttlMs: number | undefined, call: TaskCall): Promise<ServedTask | undefined>;
  /** The task as it is now. */
  get(taskId: string, owner: string): Promise<ServedTask | undefined>;
  /** The task once it has ended (or at once, if it has); rejects when `signal` aborts. */
  ended(taskId: string, owner: string, signal: AbortSignal): Promise<ServedTask | undefined>;
  /** Cancel a working task (its tool's signal aborts); an ended one stays as it ended. */
  cancel(taskId: string, owner: string): Promise<ServedTask | undefined>;
  /** The server shuts down: let go of what this process holds. */
  close(): void;
};

/** What a task's tool that asked a question ends with: a task carries no question to its client. */
const TASK_CANNOT_ASK: CallToolResult = {
  content: [{ type: 'text', text: 'Tool error: the tool asked a question, which a task cannot carry' }],
  isError: true,
};

/**
 * A task tool's result as its task keeps it.
 *
 * @internal
 */
export function taskResultOf(outcome: { result: CallToolResult; asked?: ToolInteractive }): CallToolResult {
  return outcome.asked ? TASK_CANNOT_ASK : outcome.result;
}
