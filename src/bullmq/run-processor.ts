import type { Job } from 'bullmq';
import { DEFAULT_MAX_RUN_AGENT_TIMES, type runAgentLoop } from '../index';
import { runObservedLoop } from '../internal';
import type { ChatCompletionMessageParam, Decision, RunAgentResponse, RunState } from '../index';
import type { CancelBus } from './cancel-bus';
import { EventBuffer } from './event-buffer';
import { ModelTape } from './model-tape';
import { asError, errorSummary, isRetryableModelError } from './retryable';
import type { CheckpointInput, RunStore, StoredRun } from './run-store';
import { TurnRecorder } from './turn-recorder';
import type { RunStatus, RunWorkerOptions } from './types';

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
    // A `stateSecret` would refuse the queue's own unsigned states; a plain JavaScript setup may still pass one.
    const { client, maxRunAgentTimes, ...given } = setup;
    const { stateSecret: _, ...rest } = given as typeof given & { stateSecret?: string };
    const maxTurns = maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const tape = ModelTape.fromJournal(seq, journal);
    const events = new EventBuffer(this.store, runId, this.options.eventFlushMs);
    const { controller, release } = this.cancels.register(runId);
    const recorder = new TurnRecorder(runId, this.store, journal, tape, events, (error) => controller.abort(error));
    const decisions = run.decisions ? (JSON.parse(run.decisions) as Record<string, Decision>) : undefined;

    let result: RunAgentResponse;
    try {
      result = await runObservedLoop(
        {
          ...rest,
          body: { ...(JSON.parse(run.body) as object), messages: state.messages } as Parameters<
            typeof runAgentLoop
          >[0]['body'],
          resumeFrom: state,
          // The state is the queue's own, read from Redis: its caller stands in when setup gives none.
          ...(!('caller' in rest) && 'caller' in state ? { caller: state.caller } : {}),
          ...(decisions ? { decisions } : {}),
          journal: recorder.journal,
          client: tape.wrap(client),
          // `maxRunAgentTimes` counts across resumes: this job may take `turnsPerJob` more.
          maxRunAgentTimes: Math.min(state.turn + this.options.turnsPerJob, maxTurns),
          abortSignal: controller.signal,
        },
        [recorder.observer],
      );
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
    recorder.publishCalls();
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

  private outcome(
    result: RunAgentResponse,
    state: RunState,
    maxTurns: number,
    attempt: number,
  ): Omit<CheckpointInput, 'runId' | 'seq' | 'events'> & { retryDelayMs?: number } {
    // A failed model request adds nothing: its retry starts again from the messages before it.
    const next: RunState = result.stopReason === 'error' ? withoutFailedTurn(result.state, state) : result.state;
    switch (result.stopReason) {
      case 'completed':
      case 'tool_stop':
        return { state: next, status: 'completed', stopReason: result.stopReason, text: lastText(next.messages) };
      case 'max_turns':
        return next.turn >= maxTurns
          ? { state: next, status: 'completed', stopReason: 'max_turns', text: lastText(next.messages) }
          : { state: next, status: 'running' };
      case 'interactive':
        return { state: next, status: 'waiting', stopReason: 'interactive' };
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

/** The state up to the last whole turn: the failed request and whatever it left (a partial answer) dropped. */
function withoutFailedTurn(failed: RunState, before: RunState): RunState {
  if (failed.turn <= before.turn) return before;
  const last = failed.messages[failed.messages.length - 1];
  const messages = last?.role === 'assistant' ? failed.messages.slice(0, -1) : failed.messages;
  return { ...failed, messages, turn: failed.turn - 1 };
}

function lastText(messages: ChatCompletionMessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant' && typeof message.content === 'string' && message.content) return message.content;
  }
  return '';
}
