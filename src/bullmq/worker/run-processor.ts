import type { Job } from 'bullmq';
import type { runAgentLoop } from '../../index';
import { DEFAULT_MAX_RUN_AGENT_TIMES, isRetryableModelError, runObservedLoop } from '../../internal';
import type { ChatCompletionMessageParam, RunAgentResponse, RunState, ToolJournal } from '../../index';
import type { CancelBus } from './cancel-bus';
import { EventBuffer } from './event-buffer';
import { ModelTape } from './model-tape';
import { asError, errorSummary } from './error-summary';
import { lostWritesError } from '../store/lost-writes';
import type { CheckpointInput, RunStore, StoredError, StoredRun } from '../store/run-store';
import { RunHold, RunMovedOnError } from './run-hold';
import { TurnCheckpoint, type RunOutcome } from './turn-checkpoint';
import { TurnRecorder } from './turn-recorder';
import type { RunStatus, RunWorkerOptions } from '../types';

/**
 * The data of a run's job: which run, and the sequence number it was queued at. A run's first job also carries what
 * `start` stored (when small): the worker then needs no read, and sends its claim alongside the first model request.
 */
export type TurnJobData = { runId: string; seq: number; start?: JobStart };

/** What `start` stored of a new run, carried by its first job. */
export type JobStart = Pick<StoredRun, 'state' | 'body' | 'meta'>;

/** The BullMQ job id of a run's job queued at `seq` (BullMQ refuses `:` in custom ids). */
export function turnJobId(runId: string, seq: number): string {
  return `${runId}-${seq}`;
}

/** Runs handed back to the queue that a processor remembers, so their next job here needs no read. */
const MAX_CACHED_RUNS = 1000;

/** Thrown to BullMQ so it retries the job from the run's last checkpoint. */
class RetryTurnError extends Error {
  constructor(cause: unknown) {
    super(`Retrying the turn: ${errorSummary(cause).message}`, { cause });
  }
}

export type ProcessorOptions = {
  /** Turns one job runs before it hands the run back to the queue. */
  turnsPerJob: number;
  /** Milliseconds after which a job hands the run back at its next checkpoint. */
  jobSliceMs: number;
  attempts: number;
  eventFlushMs: number;
  setup: RunWorkerOptions['setup'];
  addTurn: (data: TurnJobData, delayMs?: number) => Promise<unknown>;
  /** Told of each run a job holds, and of how it settled: a `wait` in this process then needs no read. */
  settles?: HeldRuns;
};

/** Told by the jobs of a process of the runs they hold, and of what a run that settled was stored as. */
export type HeldRuns = {
  hold(runId: string): void;
  /** The job let the run go; `settled` is the run as its final write stored it, when the job paused or ended it. */
  release(runId: string, settled?: StoredRun): void;
};

/**
 * Runs one job: claim the run, advance it turn after turn, checkpointing each turn in one write, until it waits,
 * ends, or has had its share of the worker (`turnsPerJob` turns or `jobSliceMs`); then it goes back to the end of
 * the queue, behind the jobs waiting there.
 */
export class RunProcessor {
  /** Runs this process handed back to the queue, as checkpointed: their next job here needs no read. */
  private readonly cache = new Map<string, StoredRun>();
  /** Set when the worker closes: each job hands its run off at its next checkpoint instead of running on. */
  private stopping = false;

  constructor(
    private readonly store: RunStore,
    private readonly cancels: CancelBus,
    private readonly options: ProcessorOptions,
  ) {}

  /** Make every job hand its run back to the queue at its next checkpoint (the worker is closing). */
  stop(): void {
    this.stopping = true;
  }

  async process(job: Job<TurnJobData>): Promise<void> {
    const { runId, seq: jobSeq } = job.data;
    const attempt = Math.max(1, job.attemptsStarted ?? 1);
    const { controller, release } = this.cancels.register(runId);
    let settled: StoredRun | undefined;
    this.options.settles?.hold(runId);
    try {
      const carried = await this.claimCarried(job.data, attempt);
      if (carried === false) return;
      if (carried) {
        settled = await this.advance(carried, new Map(), attempt, controller);
        return;
      }
      const claimed = await this.claim(runId, jobSeq, attempt);
      if (!claimed) return;
      settled = await this.advance(claimed.run, claimed.journal, attempt, controller);
    } finally {
      release();
      this.options.settles?.release(runId, settled);
    }
  }

  /**
   * @returns the run as stored, when this job paused or ended it.
   */
  private async advance(
    run: StoredRun,
    journal: ReadonlyMap<string, string>,
    attempt: number,
    controller: AbortController,
  ): Promise<StoredRun | undefined> {
    const { runId } = run;
    let movedOn = false;
    // A refused claim or checkpoint (the run was cancelled, or another job has it) stops the loop at once; a failed
    // one too, and the job fails with it after the loop.
    const hold = new RunHold((error) => {
      if (error === undefined) movedOn = true;
      controller.abort(error ?? new RunMovedOnError());
    });
    const setup = await this.options.setup({ runId, meta: run.meta });
    // A `stateSecret` would refuse the queue's own unsigned states; a plain JavaScript setup may still pass one.
    const { client, maxRunAgentTimes, ...given } = setup;
    const { stateSecret: _, ...rest } = given as typeof given & { stateSecret?: string };
    const maxTurns = maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const tape = ModelTape.fromJournal(run.seq, journal);
    const events = new EventBuffer(this.store, runId, this.options.eventFlushMs, hold, run.writes);
    const recorder = new TurnRecorder(runId, this.store, journal, tape, events, (error) => controller.abort(error));

    const checkpoint = new TurnCheckpoint({
      runId,
      store: this.store,
      events,
      hold,
      recorder,
      tape,
      claimed: { seq: run.seq, state: run.state },
      // A run's decisions stay stored until the checkpoint after them, so a repeat applies them again.
      withDecisions: run.decisions !== undefined,
      turnsPerJob: this.options.turnsPerJob,
      jobSliceMs: this.options.jobSliceMs,
      stopping: () => this.stopping,
    });

    const taped = tape.lend(client);
    const result = await runObservedLoop(
      {
        ...rest,
        body: { ...run.body, messages: run.state.messages } as Parameters<typeof runAgentLoop>[0]['body'],
        resumeFrom: run.state,
        // The state is the queue's own, read from the store: its caller stands in when setup gives none.
        ...(!('caller' in rest) && 'caller' in run.state ? { caller: run.state.caller } : {}),
        ...(run.decisions ? { decisions: run.decisions } : {}),
        journal: gatedJournal(recorder.journal, hold),
        client: taped.client,
        maxRunAgentTimes: maxTurns,
        abortSignal: controller.signal,
        onCheckpoint: checkpoint.write,
        // Checked right after each checkpoint: a job that handed its run off stops there.
        isAborted: () => checkpoint.handedOff,
      },
      [recorder.observer],
    ).finally(taped.release);
    // A claim or checkpoint that failed (Redis was unreachable, say) fails the job: BullMQ retries it from the run's
    // last checkpoint, with a claim of its own.
    const held = await hold.confirmed().catch((error: unknown) => {
      events.discard();
      throw error;
    });
    if (!held) movedOn = true;
    if (recorder.failure !== undefined && !movedOn) throw asError(recorder.failure);
    const { saved, handedOff } = checkpoint;
    const cancelled =
      this.cancels.takeCancelled(runId) || (controller.signal.aborted && !handedOff && result.stopReason === 'aborted');
    if (movedOn || cancelled) {
      // Another worker has the run, or the cancel already ended it and announced it.
      events.discard();
      this.cache.delete(runId);
      if (movedOn) await this.assertStoreKept(runId, run.jobSeq, checkpoint.acknowledged);
      return undefined;
    }
    if (handedOff && result.stopReason === 'aborted') {
      await events.settle();
      const { decisions: _, ...taken } = run;
      const { written } = events;
      this.cache.set(runId, {
        ...taken,
        status: 'running',
        seq: saved.seq,
        jobSeq: saved.seq,
        state: saved.state,
        ...(written !== undefined ? { writes: written } : {}),
      });
      // The next job of a run may land on another worker: the oldest entries go first.
      if (this.cache.size > MAX_CACHED_RUNS) this.cache.delete(this.cache.keys().next().value!);
      await this.options.addTurn({ runId, seq: saved.seq });
      return undefined;
    }
    this.cache.delete(runId);
    const outcome = this.outcome(result, saved.state, attempt);
    const last = await checkpoint.finish(outcome);
    if (last === undefined) await this.assertStoreKept(runId, run.jobSeq, checkpoint.acknowledged);
    return last === undefined || !this.options.settles ? undefined : storedAs(run, last, outcome);
  }

  /**
   * A run's first job that carries the run's start claims the run without reading it back, and before `setup`: a run
   * cancelled while queued runs nothing, not even its first model request. The run when it was this job's, still at
   * the start's sequence number; `false` when it was not; `undefined` for any other job (or a repeated attempt,
   * which must read the journal).
   */
  private async claimCarried(data: TurnJobData, attempt: number): Promise<StoredRun | false | undefined> {
    const { runId, seq, start } = data;
    if (start === undefined || attempt !== 1) return undefined;
    if (this.cancels.takeCancelled(runId)) return false;
    const claim = await this.store.claim(runId, seq, { attempt, withJournal: false });
    if (claim === undefined) await this.repairHandOff(runId, seq);
    if (claim === undefined || claim.run.seq !== seq || claim.run.decisions !== undefined) return false;
    const { writes } = claim.run;
    return { runId, status: 'running', seq, jobSeq: seq, ...start, ...(writes !== undefined ? { writes } : {}) };
  }

  /** The run from this process's cache or from the store; `undefined` when the job has nothing to do. */
  private async claim(
    runId: string,
    jobSeq: number,
    attempt: number,
  ): Promise<{ run: StoredRun; journal: ReadonlyMap<string, string> } | undefined> {
    const cached = this.cache.get(runId);
    this.cache.delete(runId);
    const cancelled = this.cancels.takeCancelled(runId);
    if (cached && cached.jobSeq === jobSeq && attempt === 1 && !cancelled) return { run: cached, journal: new Map() };
    // Only a repeated attempt can find calls of the turn in flight in the journal.
    const claimed = await this.store.claim(runId, jobSeq, { attempt, withJournal: attempt > 1 });
    if (!claimed) {
      await this.repairHandOff(runId, jobSeq);
      return undefined;
    }
    return claimed;
  }

  /**
   * A job that finds its run handed to a later job is a repeat of a job that handed it off but may have died before
   * it queued that job: queue it (a no-op while that job exists).
   */
  private async repairHandOff(runId: string, jobSeq: number): Promise<void> {
    const { run } = await this.store.read(runId);
    if (run?.status === 'running' && run.jobSeq > jobSeq) await this.options.addTurn({ runId, seq: run.jobSeq });
  }

  /**
   * A refused write means another job or a cancel has the run, unless the store went back in time: the run still this
   * job's, but behind the sequence number the store acknowledged to the job (or not even claimed), because the store
   * lost writes it had answered (a Redis machine crash loses up to its last second under `appendfsync everysec`). Then
   * the job fails, and BullMQ's retry claims the run at the checkpoint that survived; returning would strand it, with
   * no job left. A checkpoint still in flight when the write was refused proves nothing: it was never answered.
   */
  private async assertStoreKept(runId: string, jobSeq: number, acknowledgedSeq: number): Promise<void> {
    const { run } = await this.store.read(runId);
    if (run?.jobSeq !== jobSeq) return;
    if (run.status === 'queued' || (run.status === 'running' && run.seq < acknowledgedSeq))
      throw lostWritesError(runId, `at ${run.seq}, acknowledged ${acknowledgedSeq}`);
  }

  /** The run's final write: how it waits or ends; throws for BullMQ to retry a retryable model error. */
  private outcome(result: RunAgentResponse, saved: RunState, attempt: number): RunOutcome {
    // A failed model request adds nothing: its retry starts again from the messages before it.
    const next: RunState = result.stopReason === 'error' ? withoutFailedTurn(result.state, saved) : result.state;
    // A limit the run was given (`max_turns`, `budget`) ends it with what it gathered: completed, not failed.
    switch (result.stopReason) {
      case 'completed':
      case 'tool_stop':
      case 'max_turns':
      case 'budget':
        return {
          state: next,
          status: 'completed',
          stopReason: result.stopReason,
          text: lastText(next.messages),
          ...(result.output !== undefined ? { output: result.output } : {}),
        };
      case 'interactive':
        return { state: next, status: 'waiting', stopReason: 'interactive' };
      case 'error':
        // BullMQ retries the job after its backoff; the retry claims the run at its last checkpoint.
        if (isRetryableModelError(result.error) && attempt < this.options.attempts)
          throw new RetryTurnError(result.error);
        return failed(next, 'error', result.error);
      default:
        return failed(next, result.stopReason, result.error);
    }
  }
}

/**
 * A journal whose reads wait for the job's hold on the run (its claim, the last checkpoint): no tool runs before the
 * run is known to be still this job's.
 */
function gatedJournal(journal: ToolJournal, hold: RunHold): ToolJournal {
  return {
    get: async (key) => {
      if (!(await hold.confirmed())) throw new RunMovedOnError("The run is not this job's");
      return journal.get(key);
    },
    set: (key, result) => journal.set(key, result),
  };
}

/**
 * The run as the final write stored it, as a read would give it back: its typed answer and error through JSON (they
 * may be class instances), and no empty `stopReason` or `text` (the store drops those fields). The state is the
 * loop's own snapshot, JSON already: the job is done with it.
 */
function storedAs(run: StoredRun, seq: number, outcome: RunOutcome): StoredRun {
  const { decisions: _, ...taken } = run;
  const stored: StoredRun = { ...taken, status: outcome.status, seq, state: outcome.state };
  if (outcome.stopReason) stored.stopReason = outcome.stopReason;
  if (outcome.text) stored.text = outcome.text;
  if (outcome.output !== undefined) stored.output = JSON.parse(JSON.stringify(outcome.output)) as unknown;
  if (outcome.error) stored.error = JSON.parse(JSON.stringify(outcome.error)) as StoredError;
  return stored;
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
