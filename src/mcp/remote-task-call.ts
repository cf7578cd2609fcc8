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
/** The longest status message of a remote task that reaches `ctx.progress`. */
const MAX_STATUS_CHARS = 500;
/** How long a task is asked to be kept after it ends, for a run that resumes later. */
const TASK_TTL_MS = 60 * 60_000;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** What one task-augmented call needs. */
export type RemoteTaskCall = {
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
 * Call a 2025-11-25 task tool (`execution.taskSupport`): `tools/call` with a `task` asks the server to run it as a
 * task, `tasks/get` polls it (at the interval the server suggests, held between 50 ms and 30 s) and reports each new
 * status message as progress, and `tasks/result` reads its result once it ends or needs input (the server delivers
 * its questions while that request waits). With `taskIds` and a key, a call whose task was already started (a run
 * resumed after a crash) polls that task instead of starting the work again.
 *
 * @internal
 */
export async function callRemoteTask(call: RemoteTaskCall): Promise<Record<string, unknown>> {
  const { request, options } = call;
  let taskId = call.key !== undefined ? await call.taskIds?.get(call.key) : undefined;
  let task: Record<string, unknown>;
  if (taskId === undefined) {
    const created = await request('tools/call', { ...call.params, task: { ttl: TASK_TTL_MS } }, options);
    task = taskOf(created.task);
    taskId = task.taskId as string;
    if (call.key !== undefined) await call.taskIds?.set(call.key, taskId);
  } else {
    task = taskOf(await request('tasks/get', { taskId }, options));
  }
  let reports = 0;
  let lastMessage: string | undefined;
  for (;;) {
    const status = String(task.status);
    const message = typeof task.statusMessage === 'string' ? task.statusMessage.slice(0, MAX_STATUS_CHARS) : undefined;
    if (message !== undefined && message !== lastMessage) {
      lastMessage = message;
      call.progress?.({ progress: ++reports, message });
    }
    if (TERMINAL.has(status) || status === 'input_required') break;
    await sleep(pollInterval(task.pollInterval), call.signal);
    task = taskOf(await request('tasks/get', { taskId }, options));
  }
  if (task.status === 'cancelled') throw new Error(`the remote task ${taskId} was cancelled`);
  return request('tasks/result', { taskId }, options);
}

/** A task as a server sent it, checked enough to poll it: an object with a string `taskId`. */
function taskOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || typeof (value as { taskId?: unknown }).taskId !== 'string') {
    throw new Error('the server answered a task call without a task');
  }
  return value as Record<string, unknown>;
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
