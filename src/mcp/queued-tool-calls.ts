import type { RunToolResult } from '../index';

/** A queued tool call as a task server reads it (what `agentcall/bullmq`'s `runs.getToolCall` resolves to). */
export type QueuedToolCall = {
  status: 'working' | 'completed' | 'failed' | 'cancelled';
  /** The tool's latest progress message. */
  statusMessage?: string;
  /** The tool's outcome, once `completed`. */
  result?: Pick<RunToolResult, 'response' | 'outcome' | 'content' | 'structuredContent' | 'interactive'>;
  /** Why the call failed (its job was given up), once `failed`. */
  error?: { message: string };
  /** What the call was queued with as `meta`. */
  meta?: unknown;
  /** When it was queued and last changed, as ISO 8601 text. */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long it is kept after it was queued. */
  ttlMs: number;
};

/**
 * Where served task tools run when they must outlive the serving process: single tool calls on a queue, read,
 * waited for and cancelled from any process. `agentcall/bullmq`'s `AgentRuns` is one; the server needs only these
 * four methods of it, so `agentcall/mcp` does not load the queue.
 *
 * @example
 * const runs = new AgentRuns({ connection: { host: '127.0.0.1', port: 6379 }, secret });
 * const handler = createMcpHttpHandler(tools, { name: 'reports', version: '1.0.0', tasks: { runs } });
 */
export type QueuedToolCalls = {
  /** Queue a call of the tool `name`, kept `ttlMs`; `meta` is kept with it (the server keeps its caller's key there). */
  callTool(call: {
    name: string;
    arguments?: Record<string, unknown>;
    meta?: unknown;
    ttlMs?: number;
  }): Promise<{ callId: string }>;
  /** The call as stored; `undefined` for an id no call has. */
  getToolCall(callId: string): Promise<QueuedToolCall | undefined>;
  /** The call once it ended, or as it is after `timeoutMs`; rejects when `signal` aborts. */
  waitToolCall(
    callId: string,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<QueuedToolCall | undefined>;
  /** Cancel a working call (its tool's signal aborts); the call as stored after. */
  cancelToolCall(callId: string): Promise<QueuedToolCall | undefined>;
};
