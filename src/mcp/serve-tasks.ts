import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolRequest,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { ServedTask, TaskBackend } from './task-backend';
import { TASKS_EXTENSION } from './tasks-extension';

/** How often a client is told to poll a running task. */
const POLL_INTERVAL_MS = 1_000;
/** The longest task id a request may name: ours are UUIDs, and anything longer is no id of ours. */
const MAX_TASK_ID_CHARS = 100;
/** JSON-RPC's code a cancelled task's `tasks/result` answers with (the 2025-11-25 spec's own). */
const TASK_CANCELLED = -32000;

/**
 * The capabilities a server with task tools announces: `tasks` (2025-11-25: task-augmented `tools/call`,
 * `tasks/cancel`) and the `io.modelcontextprotocol/tasks` extension (2026-07-28).
 *
 * @internal
 */
export function taskCapabilities(): {
  tasks: { cancel: Record<string, never>; requests: { tools: { call: Record<string, never> } } };
  extensions: Record<string, Record<string, never>>;
} {
  return { tasks: { cancel: {}, requests: { tools: { call: {} } } }, extensions: { [TASKS_EXTENSION]: {} } };
}

/** Whether a request is served in the 2026-07-28 era (stateless) rather than in a 2025-era session. */
export function servesModernEra(server: Server): boolean {
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && version >= '2026-07-28';
}

/**
 * Whether this `tools/call` asks for a task, and for how long the client wants it kept: a 2025-era request
 * carries `params.task`; a 2026-era client declares the tasks extension, and the server then answers a task tool
 * with a task. `undefined` when the call is to be answered with its result.
 *
 * @internal
 */
export function taskRequested(server: Server, request: CallToolRequest): { ttlMs?: number } | undefined {
  if (servesModernEra(server)) {
    return server.getClientCapabilities()?.extensions?.[TASKS_EXTENSION] !== undefined ? {} : undefined;
  }
  const task = (request.params as { task?: unknown }).task;
  if (typeof task !== 'object' || task === null) return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === 'number' && Number.isFinite(ttl) ? { ttlMs: ttl } : {};
}

/**
 * The answer to a `tools/call` that started `task`: `{ task }` for a 2025-era session, a result with
 * `resultType: 'task'` and the task's fields for a 2026-era request.
 *
 * @internal
 */
export function taskCreated(server: Server, task: ServedTask): Record<string, unknown> {
  if (servesModernEra(server)) return { resultType: 'task', ...modernTask(task, false) };
  return { task: legacyTask(task) };
}

/**
 * Answer `tasks/get`, `tasks/result` (2025-11-25) and `tasks/cancel` from `tasks` (kept in this process or queued),
 * each for the task's own caller only (`ownerOf` names the caller of a request); a task id not found, or another caller's, is `-32602`.
 *
 * @internal
 */
export function serveTasks(server: Server, tasks: TaskBackend, ownerOf: (ctx: ServerContext) => string): void {
  const found = (task: ServedTask | undefined, taskId: string): ServedTask => {
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return task;
  };
  server.setRequestHandler('tasks/get', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const task = found(await tasks.get(taskId, ownerOf(ctx)), taskId);
    return servesModernEra(server) ? modernTask(task, true) : legacyTask(task);
  });
  server.setRequestHandler('tasks/result', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const task = found(await tasks.ended(taskId, ownerOf(ctx), ctx.mcpReq.signal), taskId);
    const related = { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
    if (task.status === 'completed') return { ...task.result, ...related };
    if (task.status === 'failed') throw new ProtocolError(task.error!.code, task.error!.message, related._meta);
    throw new ProtocolError(TASK_CANCELLED, 'Task cancelled', related._meta);
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_ID }, async ({ taskId }, ctx) => {
    const task = found(await tasks.cancel(taskId, ownerOf(ctx)), taskId);
    return servesModernEra(server) ? modernTask(task, false) : legacyTask(task);
  });
}

/** What both eras say of a task: its id, status and times. */
function taskFields(task: ServedTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
}

/** A task on the 2025-11-25 wire: `ttl` and `pollInterval`, its result read with `tasks/result`. */
function legacyTask(task: ServedTask): Record<string, unknown> {
  return {
    ...taskFields(task),
    ttl: task.ttlMs,
    ...(task.status === 'working' && { pollInterval: POLL_INTERVAL_MS }),
  };
}

/** A task on the 2026-07-28 wire (the tasks extension): `ttlMs`, `pollIntervalMs`, and its outcome once it ended. */
function modernTask(task: ServedTask, withOutcome: boolean): Record<string, unknown> {
  return {
    ...taskFields(task),
    ttlMs: task.ttlMs,
    ...(task.status === 'working' && { pollIntervalMs: POLL_INTERVAL_MS }),
    ...(withOutcome && task.result && { result: task.result }),
    ...(withOutcome && task.error && { error: task.error }),
  };
}

/** The params of `tasks/get`, `tasks/result` and `tasks/cancel`: a task id, as a client sent it (untrusted). */
const TASK_ID: StandardSchemaV1<{ taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'agentcall',
    validate: (value) => {
      const taskId = typeof value === 'object' && value !== null ? (value as { taskId?: unknown }).taskId : undefined;
      return typeof taskId === 'string' && taskId.length <= MAX_TASK_ID_CHARS
        ? { value: { taskId } }
        : { issues: [{ message: `taskId must be a string of at most ${MAX_TASK_ID_CHARS} characters` }] };
    },
  },
};
