import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServedTask, ServedTaskStatus, TaskBackend, TaskCall } from './task-backend';

/** Limits of the tasks one server (or HTTP handler) keeps. */
export type ServedTaskLimits = {
  /** Tasks kept at once, running or ended; past it the oldest ended one goes, and with none ended a call is refused. */
  maxTasks: number;
  /** The longest a task is kept after it was created, whatever the client asks. */
  maxTtlMs: number;
};

/** The longest status message a task keeps (a tool's progress text, shown to a client's user). */
const MAX_STATUS_CHARS = 500;

type Entry = {
  readonly task: ServedTask;
  /** Whose task it is: only the same caller reads or cancels it. */
  readonly owner: string;
  readonly abort: AbortController;
  readonly expiry: NodeJS.Timeout;
  /** Settled when the task ends. */
  readonly ended: Promise<void>;
  end: () => void;
};

/** How a task's call runs here: with the task's abort signal and a way to report a status message. */
export type TaskRunner = (
  call: TaskCall,
  signal: AbortSignal,
  status: (message: string) => void,
) => Promise<CallToolResult>;

/**
 * The tasks of `@Tool({ task: true })` calls, kept in this process: each runs here, is read by its task id and its
 * caller only, and is dropped when its time to live runs out. At most `maxTasks` are kept, so no client grows the
 * table without end.
 *
 * @internal
 */
export class ServedTasks implements TaskBackend {
  private readonly entries = new Map<string, Entry>();
  /** The ids of ended tasks, oldest end first: the first to go when the table is full. */
  private readonly endedIds = new Set<string>();

  constructor(
    private readonly limits: ServedTaskLimits,
    private readonly run: TaskRunner,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Run `call` here as a task of `owner`, kept for `ttlMs` (held to the limit); `undefined` when the table is full of running tasks. */
  async start(owner: string, ttlMs: number | undefined, call: TaskCall): Promise<ServedTask | undefined> {
    if (this.entries.size >= this.limits.maxTasks && !this.evictEnded()) return undefined;
    const now = new Date().toISOString();
    const kept = Math.min(this.limits.maxTtlMs, ttlMs !== undefined && ttlMs > 0 ? ttlMs : this.limits.maxTtlMs);
    const task: ServedTask = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: kept,
    };
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const expiry = setTimeout(() => this.drop(task.taskId), kept);
    // A kept task must not keep the process alive.
    expiry.unref();
    const entry: Entry = { task, owner, abort: new AbortController(), expiry, ended, end };
    this.entries.set(task.taskId, entry);
    const status = (message: string) => {
      if (task.status !== 'working') return;
      task.statusMessage = message.slice(0, MAX_STATUS_CHARS);
      task.lastUpdatedAt = new Date().toISOString();
    };
    this.run(call, entry.abort.signal, status).then(
      (result) => this.finish(entry, 'completed', { result }),
      (error: unknown) =>
        this.finish(entry, 'failed', {
          error: { code: -32603, message: error instanceof Error ? error.message : 'the task failed' },
        }),
    );
    return task;
  }

  /** The task `taskId` of `owner`; another caller's task is not found, as one that never was. */
  async get(taskId: string, owner: string): Promise<ServedTask | undefined> {
    const entry = this.entries.get(taskId);
    return entry && entry.owner === owner ? entry.task : undefined;
  }

  /** The task once it has ended (or at once, if it has); `undefined` for a task not found. */
  async ended(taskId: string, owner: string, signal: AbortSignal): Promise<ServedTask | undefined> {
    const entry = this.entries.get(taskId);
    if (!entry || entry.owner !== owner) return undefined;
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      void entry.ended.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    return entry.task;
  }

  /** Cancel a running task (its tool's signal aborts); an ended one stays as it ended. */
  async cancel(taskId: string, owner: string): Promise<ServedTask | undefined> {
    const entry = this.entries.get(taskId);
    if (!entry || entry.owner !== owner) return undefined;
    if (entry.task.status === 'working') {
      this.finish(entry, 'cancelled', {});
      entry.abort.abort(new Error('the task was cancelled'));
    }
    return entry.task;
  }

  /** Cancel every running task and forget them all (the server shuts down). */
  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.expiry);
      if (entry.task.status === 'working') entry.abort.abort(new Error('the server closed'));
      entry.end();
    }
    this.entries.clear();
    this.endedIds.clear();
  }

  private finish(entry: Entry, status: ServedTaskStatus, outcome: Pick<ServedTask, 'result' | 'error'>): void {
    const { task } = entry;
    // The first end wins: a tool that returns after its task was cancelled changes nothing.
    if (task.status !== 'working') return;
    task.status = status;
    if (outcome.result) task.result = outcome.result;
    if (outcome.error) task.error = outcome.error;
    task.lastUpdatedAt = new Date().toISOString();
    this.endedIds.add(task.taskId);
    entry.end();
  }

  private drop(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    clearTimeout(entry.expiry);
    this.endedIds.delete(taskId);
    if (entry.task.status === 'working') {
      this.finish(entry, 'cancelled', {});
      this.endedIds.delete(taskId);
      entry.abort.abort(new Error('the task expired'));
    }
  }

  /** Drop the oldest ended task to make room; false when every kept task is still running. */
  private evictEnded(): boolean {
    const [oldest] = this.endedIds;
    if (oldest === undefined) return false;
    this.drop(oldest);
    return true;
  }
}
