import type { Job } from 'bullmq';
import {
  runTool,
  ToolCallRejectedError,
  type RunToolResult,
  type ToolDefinition,
  type ToolExecuteResult,
} from '../../index';
import type { ToolCallStore } from '../store/tool-call-store';
import type { RunWorkerOptions, StoredToolResult } from '../types';
import { asError } from './error-summary';

/** The BullMQ job name of a queued tool call; a run's jobs are named `turn`. */
export const TOOL_CALL_JOB = 'tool-call';

/** What a tool call's job carries. */
export type ToolCallJobData = { callId: string; name: string; args: Record<string, unknown> };

/** Bytes of a stored result, as JSON: a larger one is stored as an error saying so, not cut mid-content. */
export const MAX_STORED_RESULT_BYTES = 1024 * 1024;

/**
 * The job id of a call: it ends in letters, and a turn's job id (`${runId}-${seq}`) in digits, so no run's job can
 * take it.
 */
export function toolCallJobId(callId: string): string {
  return `${callId}-tool-call`;
}

/** Whether `job` is a tool call's (its data is then {@link ToolCallJobData}). */
export function isToolCallJob(job: Job): job is Job<ToolCallJobData> {
  return job.name === TOOL_CALL_JOB;
}

/**
 * Runs queued tool calls: each job's tool through `runTool`, with the call id as `ctx.idempotencyKey` (a call a dead
 * worker left is run again by another with the same key), an abort signal a cancel from any process fires, the
 * tool's latest progress message kept as the call's status, and the outcome stored once. A call whose outcome is
 * stored (or that was cancelled, or expired) never runs again.
 */
export class ToolCallProcessor {
  /** The calls running here, by id: a cancel heard aborts its signal. */
  private readonly running = new Map<string, AbortController>();
  /** The cancel subscription, opened by the first call this worker takes (a worker of runs only never opens it). */
  private subscription?: Promise<{ close(): Promise<void> }>;

  constructor(
    private readonly calls: ToolCallStore,
    private readonly setup: RunWorkerOptions['setup'],
  ) {}

  async process(job: Job<ToolCallJobData>): Promise<void> {
    const { callId, name, args } = job.data;
    await this.listen();
    // Registered before the read: a cancel from now on is heard, and one before it is in the status read.
    const controller = new AbortController();
    this.running.set(callId, controller);
    try {
      const call = await this.calls.read(callId);
      if (!call || call.status !== 'working') return;
      const { tools, caller, toolTimeoutMs } = await this.setup({ runId: callId, meta: call.meta });
      const status = latestOnly((message) => this.calls.status(callId, message));
      // runTool keeps the text of a result; an MCP client also gets its content, as the tool returned it.
      let returned: ToolExecuteResult | undefined;
      const observed = tools.map((tool): ToolDefinition => ({
        ...tool,
        execute: async (ctx) => {
          // No person is asked here: a tool that needs one runs in a run, where `decide` gives the approval.
          if (tool.needsApproval)
            throw new ToolCallRejectedError(
              `Tool call rejected: ${name} needs approval, which a queued tool call does not ask for`,
            );
          const result = await tool.execute(ctx);
          returned = result;
          return result;
        },
      }));
      const result = await runTool({
        call: { id: callId, type: 'function', function: { name, arguments: JSON.stringify(args) } },
        messages: [],
        tools: observed,
        signal: controller.signal,
        idempotencyKey: callId,
        caller,
        defaultTimeoutMs: toolTimeoutMs,
        onProgress: ({ message }) => message !== undefined && status(message),
      });
      await status.settled();
      await this.calls.end(callId, { status: 'completed', result: stored(result, returned) });
    } finally {
      this.running.delete(callId);
    }
  }

  async close(): Promise<void> {
    const subscription = await this.subscription?.catch(() => undefined);
    this.subscription = undefined;
    await subscription?.close();
  }

  private async listen(): Promise<void> {
    this.subscription ??= this.calls.subscribe([this.calls.cancelChannel], (callId) =>
      this.running.get(callId)?.abort(new Error('The tool call was cancelled')),
    );
    try {
      await this.subscription;
    } catch (error) {
      // The next call tries again.
      this.subscription = undefined;
      throw asError(error);
    }
  }
}

/** What is kept of a result: capped, without the thrown error (its masked text is the response). */
function stored(result: RunToolResult, returned: ToolExecuteResult | undefined): StoredToolResult {
  const ok = result.outcome === 'ok' ? returned : undefined;
  const kept: StoredToolResult = {
    response: result.response,
    outcome: result.outcome,
    ...(ok?.content !== undefined && { content: ok.content }),
    ...(ok?.structuredContent !== undefined && { structuredContent: ok.structuredContent }),
    ...(result.interactive !== undefined && { interactive: result.interactive }),
    ...(result.attempts !== undefined && { attempts: result.attempts }),
  };
  const bytes = Buffer.byteLength(JSON.stringify(kept));
  if (bytes <= MAX_STORED_RESULT_BYTES) return kept;
  return {
    response: `Tool error: the result is ${bytes} bytes, over the ${MAX_STORED_RESULT_BYTES} a queued tool call keeps`,
    outcome: 'error',
  };
}

/**
 * `write` for the latest value only: one write in flight, and of the values given meanwhile only the last is written
 * after it (a tool reporting progress in a tight loop costs two writes at a time, not one each).
 */
function latestOnly(write: (value: string) => Promise<void>): ((value: string) => void) & {
  settled(): Promise<void>;
} {
  let inFlight: Promise<void> | undefined;
  let next: string | undefined;
  const start = (value: string): void => {
    inFlight = write(value)
      .catch(() => undefined)
      .then(() => {
        const value = next;
        next = undefined;
        if (value === undefined) inFlight = undefined;
        else start(value);
      });
  };
  const give = (value: string): void => {
    if (inFlight) next = value;
    else start(value);
  };
  return Object.assign(give, {
    async settled(): Promise<void> {
      while (inFlight) await inFlight;
    },
  });
}
