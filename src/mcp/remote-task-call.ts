import type { RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { ToolExecuteContext } from '../index';

/** What a tool's `ctx.progress(…)` reports. */
type ToolProgress = Parameters<NonNullable<ToolExecuteContext['progress']>>[0];

/** Where `mcpTools` keeps the id of each remote task it started, so a run resumed elsewhere polls it again. */
export type McpTaskIds = {
  /** The task started for the call with this `ctx.idempotencyKey`, if one was. */
  get(key: string): Promise<string | undefined>;
  /** Keep `taskId` as the task of the call with this key (before the first poll). */
  set(key: string, taskId: string): Promise<void>;
};

/** A raw request on the client, its result read without a schema (a remote server is not trusted: checked here). */
export type RawRequest = (
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
) => Promise<Record<string, unknown>>;

/** The bounds of polling a remote task. */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
const DEFAULT_POLL_MS = 1_000;
/** The longest status message of a remote task that reaches `ctx.progress`, and the longest error message read. */
const MAX_STATUS_CHARS = 500;
/** How long a task is asked to be kept after it ends, for a run that resumes later. */
const TASK_TTL_MS = 60 * 60_000;
/** The longest task id taken from a server: it is journaled and sent back with every poll. */
const MAX_TASK_ID_CHARS = 256;
/** How long the `tasks/cancel` of an aborted call may take: it is sent after the call has already ended. */
const CANCEL_TIMEOUT_MS = 10_000;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Which wire the task is on: `'legacy'` (2025-11-25: `tools/call` with `task`, the result read with `tasks/result`)
 * or `'modern'` (2026-07-28, the tasks extension: `resultType: 'task'`, the outcome inline in `tasks/get`).
 */
export type TaskEra = 'legacy' | 'modern';

/** What one task-augmented call needs. */
export type RemoteTaskCall = {
  era: TaskEra;
  request: RawRequest;
  /** The `tools/call` params: the tool's name and arguments. */
  params: Record<string, unknown>;
  options: RequestOptions;
  signal: AbortSignal | undefined;
  progress: ((progress: ToolProgress) => void) | undefined;
  /** The call's `ctx.idempotencyKey`, under which `taskIds` keeps its task. */
  key: string | undefined;
  taskIds: McpTaskIds | undefined;
};

/**
 * Call a tool as a task and poll it to its end. On 2025-11-25 (`execution.taskSupport`): `tools/call` with a
 * `task` asks the server to run it as a task, `tasks/get` polls it and `tasks/result` reads its result once it ends
 * or needs input (the server delivers its questions while that request waits). On 2026-07-28 the request declares
 * the tasks extension (`request` does), the server may answer `resultType: 'task'` (a plain result is returned as
 * it is), and `tasks/get` polls it until it carries its `result` or `error`.
 *
 * Either way the interval is the server's suggestion held between 50 ms and 30 s, each new status message (cut to
 * 500 characters) is reported as progress, and with `taskIds` and a key, a call whose task was already started (a
 * run resumed after a crash) polls that task instead of starting the work again. An aborted call sends
 * `tasks/cancel`, unless its task is kept under a key: then the abort may be the run moving to another worker,
 * which polls the same task; a cancelled queued run's is cancelled all the same.
 *
 * @internal
 */
export async function callRemoteTask(call: RemoteTaskCall): Promise<Record<string, unknown>> {
  const { request, options, era } = call;
  let taskId = call.key !== undefined ? await call.taskIds?.get(call.key) : undefined;
  let task: Record<string, unknown>;
  if (taskId === undefined) {
    const started = await start(call);
    if (!started.task) return started.result;
    task = started.task;
    taskId = task.taskId as string;
    if (call.key !== undefined) await call.taskIds?.set(call.key, taskId);
  } else {
    task = taskOf(await request('tasks/get', { taskId }, options));
  }
  const kept = call.key !== undefined && call.taskIds !== undefined;
  try {
    task = await pollToEnd(call, taskId, task);
  } catch (error) {
    // A kept task is left for the worker that takes the run over, unless the run was cancelled: none will.
    if (call.signal?.aborted && (!kept || cancelledRun(call.signal.reason))) cancel(request, taskId);
    throw error;
  }
  if (task.status === 'cancelled') throw new Error(`the remote task ${taskId} was cancelled`);
  if (era === 'legacy') return request('tasks/result', { taskId }, options);
  return outcomeOf(task, taskId);
}

/** Start the call: its task, or (2026-07-28, a server that answered at once) its plain result. */
async function start(
  call: RemoteTaskCall,
): Promise<{ task: Record<string, unknown> } | { task?: undefined; result: Record<string, unknown> }> {
  if (call.era === 'legacy') {
    const created = await call.request('tools/call', { ...call.params, task: { ttl: TASK_TTL_MS } }, call.options);
    return { task: taskOf(created.task) };
  }
  const answered = await call.request('tools/call', call.params, call.options);
  return answered.resultType === 'task' ? { task: taskOf(answered) } : { result: answered };
}

/** Poll `task` until it ends (or, on 2025-11-25, needs input), reporting each new status message. */
async function pollToEnd(
  call: RemoteTaskCall,
  taskId: string,
  first: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let task = first;
  let reports = 0;
  let lastMessage: string | undefined;
  for (;;) {
    const status = String(task.status);
    const message = typeof task.statusMessage === 'string' ? task.statusMessage.slice(0, MAX_STATUS_CHARS) : undefined;
    if (message !== undefined && message !== lastMessage) {
      lastMessage = message;
      call.progress?.({ progress: ++reports, message });
    }
    if (TERMINAL.has(status)) return task;
    if (status === 'input_required') {
      if (call.era === 'legacy') return task;
      throw new Error(`the remote task ${taskId} asks for input, which a 2026-07-28 task call cannot answer`);
    }
    await sleep(pollInterval(call.era === 'legacy' ? task.pollInterval : task.pollIntervalMs), call.signal);
    task = taskOf(await call.request('tasks/get', { taskId }, call.options));
  }
}

/** A 2026-07-28 task's outcome, inline in the ended task: its `result`, or its `error` thrown. */
function outcomeOf(task: Record<string, unknown>, taskId: string): Record<string, unknown> {
  if (task.status === 'completed' && isObject(task.result)) return task.result;
  const error = isObject(task.error) ? task.error : undefined;
  const message = typeof error?.message === 'string' ? error.message.slice(0, MAX_STATUS_CHARS) : undefined;
  if (task.status === 'failed') throw new Error(message || `the remote task ${taskId} failed`);
  throw new Error(`the remote task ${taskId} ended without a result`);
}

/**
 * Whether an abort's reason is a queued run's cancel (`RunCancelledError` of `agentcall/bullmq`), known by its name:
 * adapters do not import each other.
 */
function cancelledRun(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'RunCancelledError';
}

/** Ask the server to stop a task its caller gave up on; the call has ended already, so nothing waits for this. */
function cancel(request: RawRequest, taskId: string): void {
  request('tasks/cancel', { taskId }, { timeout: CANCEL_TIMEOUT_MS }).catch(() => undefined);
}

/** A task as a server sent it, checked enough to poll it: an object with a string `taskId`. */
function taskOf(value: unknown): Record<string, unknown> {
  if (!isObject(value) || typeof value.taskId !== 'string') {
    throw new Error('the server answered a task call without a task');
  }
  if (value.taskId.length > MAX_TASK_ID_CHARS) {
    throw new Error(`the server answered with a task id over ${MAX_TASK_ID_CHARS} characters`);
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pollInterval(suggested: unknown): number {
  if (typeof suggested !== 'number' || !Number.isFinite(suggested)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A schema that takes any object: the raw results above are checked by hand, as a remote server's must be. */
export const ANY_OBJECT: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'agentcall',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'not an object' }] },
  },
};
