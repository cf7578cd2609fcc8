import type { Job } from 'bullmq';
import { DEFAULT_MAX_RUN_AGENT_TIMES, runAgentLoop } from '../index';
import type { ChatCompletionMessageParam, RunAgentResponse, ToolCallChildrenInteractive } from '../index';
import type { CancelBus } from './cancel-bus';
import { answerFrom } from './decisions';
import { EventBuffer } from './event-buffer';
import { ModelTape } from './model-tape';
import { asError, errorSummary, isRetryableModelError } from './retryable';
import type { CheckpointInput, RunStore, StoredRun } from './run-store';
import { TurnRecorder } from './turn-recorder';
import type { Decision, PendingCall, RunState, RunStatus, RunWorkerOptions } from './types';

/** The data of a turn job: which run, at which sequence number. */
export type TurnJobData = { runId: string; seq: number };

/** The BullMQ job id of a run's turn `seq` (BullMQ refuses `:` in custom ids). */
export function turnJobId(runId: string, seq: number): string {
  return `${runId}-${seq}`;
}

/** A run this process checkpointed last, so its next job here needs no read. */
type Cached = { seq: number; run: StoredRun; state: RunState };

/** Thrown to BullMQ so it retries the turn from the last checkpoint. */
class RetryTurnError extends Error {
  constructor(cause: unknown) {
    super(`Retrying the turn: ${errorSummary(cause).message}`, { cause });
  }
}

export type ProcessorOptions = {
  turnsPerJob: number;
  attempts: number;
  eventFlushMs: number;
  setup: RunWorkerOptions['setup'];
  addTurn: (data: TurnJobData, delayMs?: number) => Promise<unknown>;
};

/** Runs one turn job: claim the run at the job's sequence number, run its turns, checkpoint, queue the next. */
export class RunProcessor {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly store: RunStore,
    private readonly cancels: CancelBus,
    private readonly options: ProcessorOptions,
  ) {}

  async process(job: Job<TurnJobData>): Promise<void> {
    const { runId, seq } = job.data;
    const attempt = Math.max(1, job.attemptsStarted ?? 1);
    const claimed = await this.claim(runId, seq, attempt);
    if (!claimed) return;
    const { run, state, journal } = claimed;

    const setup = await this.options.setup({ runId, meta: JSON.parse(run.meta ?? 'null') as unknown });
    const { client, tools, maxRunAgentTimes, onStreaming, onReasoning, onToolCall, onAfterToolCall, ...rest } = setup;
    const maxTurns = maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const tape = ModelTape.fromJournal(seq, journal);
    const events = new EventBuffer(this.store, runId, this.options.eventFlushMs);
    const { controller, release } = this.cancels.register(runId);
    const recorder = new TurnRecorder(runId, this.store, journal, tape, events, (error) => controller.abort(error));
    const resume = this.resumeProps(run);

    let result: RunAgentResponse;
    try {
      result = await runAgentLoop({
        ...rest,
        ...resume,
        ...recorder.hooks({ onStreaming, onReasoning, onToolCall, onAfterToolCall }),
        body: { ...(JSON.parse(run.body) as object), messages: state.messages } as Parameters<
          typeof runAgentLoop
        >[0]['body'],
        tools: recorder.tools(tools),
        client: tape.wrap(client),
        maxRunAgentTimes: Math.max(1, Math.min(this.options.turnsPerJob, maxTurns - state.turn)),
        abortSignal: controller.signal,
      });
    } finally {
      release();
    }
    if (recorder.failure !== undefined) throw asError(recorder.failure);
    if (this.cancels.takeCancelled(runId) || (controller.signal.aborted && result.stopReason === 'aborted')) {
      // The cancel script already ended the run and announced it.
      events.discard();
      this.cache.delete(runId);
      return;
    }
    await events.settle();
    const outcome = this.outcome(result, state, maxTurns, attempt);
    const next = await this.store.checkpoint({ runId, seq, events: events.take(), ...outcome });
    if (next === undefined || outcome.status !== 'running') {
      this.cache.delete(runId);
      return;
    }
    this.cache.set(runId, { seq: next, run, state: outcome.state });
    await this.options.addTurn({ runId, seq: next }, outcome.retryDelayMs);
  }

  /** The run at `seq` from this process's cache or from Redis; `undefined` when the job has nothing to do. */
  private async claim(
    runId: string,
    seq: number,
    attempt: number,
  ): Promise<{ run: StoredRun; state: RunState; journal: ReadonlyMap<string, string> } | undefined> {
    const cached = this.cache.get(runId);
    const cancelled = this.cancels.takeCancelled(runId);
    if (cached && cached.seq === seq && attempt === 1 && !cancelled) {
      return { run: cached.run, state: cached.state, journal: new Map() };
    }
    this.cache.delete(runId);
    // Only a repeated attempt can find calls of this turn in the journal.
    const claimed = await this.store.claim(runId, seq, attempt, attempt > 1);
    if (!claimed) {
      await this.repairHandOff(runId, seq);
      return undefined;
    }
    return { run: claimed.run, state: JSON.parse(claimed.run.state) as RunState, journal: claimed.journal };
  }

  /**
   * A job that finds its run one step ahead is a repeat of a job that checkpointed but may have died before it
   * queued the next turn: queue it (a no-op while that job exists).
   */
  private async repairHandOff(runId: string, seq: number): Promise<void> {
    const { run } = await this.store.read(runId);
    if (run?.status === 'running' && Number(run.seq) === seq + 1) await this.options.addTurn({ runId, seq: seq + 1 });
  }

  /** Resume props for a run decided after an interactive pause. */
  private resumeProps(run: StoredRun) {
    if (!run.decisions || !run.interactive) return {};
    const interactive = JSON.parse(run.interactive) as ToolCallChildrenInteractive;
    const decisions = JSON.parse(run.decisions) as Record<string, Decision>;
    return { childrenInteractiveParams: interactive.params, handleInteractiveTool: answerFrom(decisions) };
  }

  private outcome(
    result: RunAgentResponse,
    state: RunState,
    maxTurns: number,
    attempt: number,
  ): Omit<CheckpointInput, 'runId' | 'seq' | 'events'> & { retryDelayMs?: number } {
    const failedTurn = result.stopReason === 'error' ? 1 : 0;
    const next: RunState = {
      ...state,
      // A failed turn adds nothing: its retry starts again from the messages before it.
      messages: failedTurn ? withoutFailedTurn(result, state) : result.completeMessages,
      turn: state.turn + result.runTimes - failedTurn,
      usage: {
        inputTokens: state.usage.inputTokens + result.inputTokens,
        outputTokens: state.usage.outputTokens + result.outputTokens,
      },
      pending: pendingOf(result),
    };
    switch (result.stopReason) {
      case 'completed':
      case 'tool_stop':
        return { state: next, status: 'completed', stopReason: result.stopReason, text: lastText(next.messages) };
      case 'max_turns':
        return next.turn >= maxTurns
          ? { state: next, status: 'completed', stopReason: 'max_turns', text: lastText(next.messages) }
          : { state: next, status: 'running' };
      case 'interactive':
        return { state: next, status: 'waiting', stopReason: 'interactive', interactive: result.interactiveResponse };
      case 'error':
        if (isRetryableModelError(result.error) && attempt < this.options.attempts) {
          // Turns finished before the failed one are kept; with none, BullMQ retries this very job.
          if (next.turn === state.turn) throw new RetryTurnError(result.error);
          return { state: next, status: 'running', retryDelayMs: 1000 };
        }
        return failed(next, 'error', result.error);
      default:
        return failed(next, result.stopReason, result.error);
    }
  }
}

function failed(
  state: RunState,
  stopReason: string,
  error: unknown,
): { state: RunState; status: RunStatus; stopReason: string; error?: CheckpointInput['error'] } {
  return { state, status: 'failed', stopReason, ...(error !== undefined ? { error: errorSummary(error) } : {}) };
}

/** The history up to the last whole turn: whatever the failed request left (a partial answer) is dropped. */
function withoutFailedTurn(result: RunAgentResponse, state: RunState): ChatCompletionMessageParam[] {
  const messages = result.completeMessages;
  const last = messages[messages.length - 1];
  if (messages.length > state.messages.length && last?.role === 'assistant') return messages.slice(0, -1);
  return messages;
}

function pendingOf(result: RunAgentResponse): PendingCall[] {
  const interactive = result.interactiveResponse?.params;
  if (!interactive) return [];
  const id = interactive.toolParams.toolCallId;
  for (const message of result.completeMessages) {
    if (message.role !== 'assistant') continue;
    const call = message.tool_calls?.find((c) => c.id === id);
    if (call?.type === 'function') return [{ kind: 'interactive', call, interactive: interactive.childrenResponse }];
  }
  return [];
}

function lastText(messages: ChatCompletionMessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant' && typeof message.content === 'string' && message.content) return message.content;
  }
  return '';
}
