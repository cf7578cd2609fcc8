import { randomUUID } from 'node:crypto';
import { SettleWaiters } from './settle-waiters';
import { isCallId, type ToolCallStore } from './store/tool-call-store';
import type { ToolCallJobData } from './worker/tool-call-processor';
import type { CallToolOptions, ToolCallRecord } from './types';

/** Characters of a tool's name in a call (as in a model's tool call, names are short). */
const MAX_TOOL_NAME_CHARS = 256;
/** How long a call is kept when `callTool` is not told. */
const DEFAULT_TTL_MS = 60 * 60_000;
/** How long `waitToolCall` waits when not told. */
const DEFAULT_WAIT_MS = 60_000;

/** What the tool calls need of the runs they share a queue and a Redis with. */
export type ToolCallsOptions = {
  /** Bytes of a call's arguments and meta, as JSON (the runs' `maxStartBytes`). */
  maxBytes: number;
  /** The longest a call is kept (the runs' `finishedTtlSeconds`, in ms). */
  maxTtlMs: number;
  /** Queue the call's job. */
  enqueue: (data: ToolCallJobData) => Promise<void>;
};

/**
 * Single tool calls on the runs' queue, the `callTool` side: queue one, read it, wait for it to end, cancel it,
 * from any process sharing the Redis. `AgentRuns` hands its `callTool`, `getToolCall`, `waitToolCall` and
 * `cancelToolCall` here.
 */
export class ToolCalls {
  /** How `wait` learns that a call ended: a subscription opened by the first wait (none for a process that never waits). */
  private settles?: SettleWaiters;

  constructor(
    private readonly store: ToolCallStore,
    private readonly options: ToolCallsOptions,
  ) {}

  async call(options: CallToolOptions): Promise<{ callId: string }> {
    const { name, arguments: args = {}, meta, ttlMs = DEFAULT_TTL_MS } = checkCall(options);
    const bytes = Buffer.byteLength(JSON.stringify(args)) + Buffer.byteLength(JSON.stringify(meta) ?? '');
    if (bytes > this.options.maxBytes)
      throw new RangeError(
        `A tool call's arguments and meta are at most ${this.options.maxBytes} bytes as JSON; these are ${bytes}`,
      );
    const callId = randomUUID();
    if (!(await this.store.create(callId, { name, meta, ttlMs: Math.min(ttlMs, this.options.maxTtlMs) })))
      throw new Error(`A tool call with the generated id ${callId} exists already`);
    await this.options.enqueue({ callId, name, args });
    return { callId };
  }

  async get(callId: string): Promise<ToolCallRecord | undefined> {
    return isCallId(callId) ? this.store.read(callId) : undefined;
  }

  async wait(
    callId: string,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallRecord | undefined> {
    if (!isCallId(callId)) return undefined;
    const { signal, timeoutMs = DEFAULT_WAIT_MS } = options;
    signal?.throwIfAborted();
    this.settles ??= new SettleWaiters({
      onSettled: (listener) => this.store.subscribe([this.store.settledChannel, this.store.cancelChannel], listener),
    });
    const settles = this.settles;
    await settles.ready();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Taken before the read: an end from now on wakes it.
      const next = settles.next(callId);
      try {
        const call = await this.store.read(callId);
        const left = deadline - Date.now();
        if (!call || call.status !== 'working' || left <= 0) return call;
        await abortable(next.heard(left), signal);
      } finally {
        next.cancel();
      }
    }
  }

  async cancel(callId: string): Promise<ToolCallRecord | undefined> {
    if (!isCallId(callId)) return undefined;
    await this.store.end(callId, { status: 'cancelled' });
    return this.store.read(callId);
  }

  async close(): Promise<void> {
    await this.settles?.close();
  }
}

/** `options` as `callTool` takes them; a clear error for anything else. */
function checkCall(options: CallToolOptions): CallToolOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('callTool takes { name, arguments? }');
  const { name, arguments: args, ttlMs } = options;
  if (typeof name !== 'string' || name === '' || name.length > MAX_TOOL_NAME_CHARS)
    throw new TypeError(`A tool call's name is a string of 1 to ${MAX_TOOL_NAME_CHARS} characters`);
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new TypeError("A tool call's arguments are an object");
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 1))
    throw new RangeError(`A tool call's ttlMs is a number of milliseconds, at least 1: ${String(ttlMs)}`);
  return { ...options, ...(ttlMs !== undefined && { ttlMs: Math.floor(ttlMs) }) };
}

/** `promise`, or a rejection with the signal's reason once `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
