import type { Decision, RunState } from '../../index';
import type { RunListing } from './list-runs';
import type { RunEvent, RunEventData, RunStatus } from '../run-data';

/** Why a failed run failed, as stored: masked and cut before it reaches a store. */
export type StoredError = { name: string; message: string; status?: number };

/** A run as a store keeps it. */
export type StoredRun = {
  runId: string;
  status: RunStatus;
  /** Bumped by every checkpoint: the compare-and-set that lets one worker advance the run at a time. */
  seq: number;
  /** The sequence number the run's current job was queued at (the job's id is `${runId}-${jobSeq}`). */
  jobSeq: number;
  state: RunState;
  /** The start's chat-completions body without `messages` (those are in `state`). */
  body: Record<string, unknown>;
  /** What `start` was given as `meta`; `null` when nothing. */
  meta: unknown;
  /**
   * The decisions a run was given: while it waits, those gathered so far (a decision may come for one call at a
   * time); once every pending call has one, all of them, until the worker that takes them checkpoints.
   */
  decisions?: Record<string, Decision>;
  stopReason?: string;
  text?: string;
  /** The run's validated typed answer, as JSON (absent when the run has none). */
  output?: unknown;
  error?: StoredError;
  /**
   * How many writes the run's jobs made (claims, journal writes, event appends, checkpoints), when the store counts
   * them: a job passes the count it expects with each write, and the store refuses a write that finds another. A
   * store that can lose writes it answered (Redis under `appendfsync everysec`) counts them, so a job never writes
   * past a gap; a store without that failure (PostgreSQL) may leave it out.
   */
  writes?: number;
};

/** A new run for {@link RunStore.create}: queued at sequence number 0. */
export type NewRun = { runId: string; state: RunState; body: Record<string, unknown>; meta: unknown };

/** What a worker saves after a turn (`status: 'running'`) or when the run waits or ends. */
export type CheckpointInput = {
  runId: string;
  /** The sequence number the worker read the run at: the save is refused unless the run is still there. */
  seq: number;
  state: RunState;
  status: RunStatus;
  stopReason?: string;
  text?: string;
  /** The run's validated typed answer; stored as JSON. */
  output?: unknown;
  error?: StoredError;
  /** The turn's events, appended in order after the run's other events (a status event is added for a new status). */
  events: RunEventData[];
  /** The run goes on in a new job queued at the new sequence number: its `jobSeq` becomes that number. */
  handOff?: boolean;
  /**
   * Keep the journal (its provisional events go as usual): the saved state is an agent's turn inside a root turn
   * whose other calls are not in the history yet, so their journaled results must outlive this checkpoint.
   */
  keepJournal?: boolean;
  /** The run's job writes this write expects to follow ({@link StoredRun.writes}); absent when the store counts none. */
  writes?: number;
};

/** What {@link RunStore.claim} hands a worker: the run, and its journal when asked for. */
export type Claimed = { run: StoredRun; journal: Map<string, string> };

/**
 * What {@link RunStore.decide} did: `decided` (every pending call has a decision now, the run is queued), `partial`
 * (merged, some calls still undecided, the run still waits), `repeated` (the run was queued with these decisions
 * already), `stale` (not waiting at that sequence number), `missing` (no such run).
 */
export type DecideOutcome = 'decided' | 'partial' | 'repeated' | 'stale' | 'missing';

/** A reader of one run's events; it may hold a connection of its own until closed. */
export type RunEventReader = {
  /**
   * The events after `after` (an event `id`, or `'0'` for all), at most `count`; when there are none yet, waits
   * up to `blockMs` for one and returns `[]` if none came.
   */
  read(after: string, options: { blockMs: number; count?: number }): Promise<RunEvent[]>;
  close(): void;
};

/** A subscription to cancels; see {@link RunStore.onCancel}. */
export type CancelSubscription = { close(): Promise<void> };

/**
 * Everything the queue reads and writes about a run: its status, sequence number, state, journal and events.
 * `RedisRunStore` is the default; another store (PostgreSQL, say) implements these methods and passes
 * `runStoreConformance`. Each method that changes a run is atomic: a reader never sees half of it.
 *
 * The queue itself (which job runs next) stays in BullMQ; a store holds only runs.
 */
export interface RunStore {
  /** Create a queued run unless one with this id exists; says which, and where the run stands. */
  create(run: NewRun): Promise<{ created: boolean; status: RunStatus; seq: number }>;

  /** The run (`undefined` when unknown or expired) and the id of its last event (`'0'` when none), read together. */
  read(runId: string): Promise<{ run?: StoredRun; lastEventId: string }>;

  /**
   * Take the run for the job queued at `jobSeq`: only a `queued` or `running` run whose `jobSeq` is that. A queued
   * run becomes `running` (with a `running` status event); a repeated attempt (`attempt > 1`) adds a `running`
   * event with its `attempt`. `withJournal` also returns the journal. `undefined` when the job has nothing to do.
   */
  claim(
    runId: string,
    jobSeq: number,
    options: { attempt: number; withJournal: boolean },
  ): Promise<Claimed | undefined>;

  /**
   * Save a turn, or the run's pause or end, with its events, in one atomic write: only while the run is `queued` or
   * `running` at `input.seq`. Clears the journal (unless `keepJournal`) and the decisions. A run that now waits expires after the
   * waiting TTL, one that ended after the finished TTL. Returns the new sequence number (`input.seq + 1`), or
   * `undefined` when another worker or a cancel got there first (nothing is written then); throws when the store is
   * behind `input.writes` (it lost writes it had answered). The queue goes on from
   * `input.seq + 1` before the answer comes (a turn's checkpoint rides alongside the next model request), and fails
   * the job should a store answer another number.
   */
  checkpoint(input: CheckpointInput): Promise<number | undefined>;

  /**
   * Add journal entries (field → opaque text) and events of the turn in flight, in one write. With `writes` (see
   * {@link StoredRun.writes}), nothing is written unless the run is running at that count; a store found behind it
   * throws (it lost writes: the job fails, and its retry goes on from what survived).
   */
  journal(runId: string, entries: Record<string, string>, events: RunEventData[], writes?: number): Promise<void>;

  /**
   * Append events, in order. They are provisional: a claim of a retried attempt (`attempt > 1`) deletes those not
   * followed by a `journal` write or a checkpoint, since that attempt repeats what they tell of. `writes` as for
   * {@link RunStore.journal}.
   */
  appendEvents(runId: string, events: RunEventData[], writes?: number): Promise<void>;

  /**
   * Merge `decisions` into those a `waiting` run at `seq` gathered so far (a later decision for a call replaces an
   * earlier one), atomically, so that two people deciding two calls at once lose neither. Once every pending call
   * (`state.pending`) has one, the run becomes `queued` (its `jobSeq` becomes `seq`, a `queued` event is added) and
   * no longer expires: `decided`. Until then it stays `waiting`: `partial`. `undecided` lists the pending calls
   * still without a decision, in call order. `repeated` when the run is queued at `seq` and each of `decisions`
   * equals the one it was queued with, `stale` when it is not waiting at `seq`, `missing` when there is no such run.
   */
  decide(
    runId: string,
    seq: number,
    decisions: Record<string, Decision>,
  ): Promise<{ outcome: DecideOutcome; undecided: string[] }>;

  /**
   * Cancel a run that has not ended (it becomes `cancelled`, `stopReason: 'aborted'`, with a status event, and
   * expires after the finished TTL) and tell every `onCancel` subscriber. Returns the status before, or `undefined`
   * when there is no such run; an ended run is left as it is.
   */
  cancel(runId: string): Promise<RunStatus | undefined>;

  /** Fail a `queued` or `running` run whose job (queued at `jobSeq`) was given up on; false when it moved on. */
  fail(runId: string, jobSeq: number, error: StoredError): Promise<boolean>;

  /** A reader of the run's events. */
  events(runId: string): RunEventReader;

  /** Call `listener` with the id of every run cancelled from now on, from any process; resolves once listening. */
  onCancel(listener: (runId: string) => void): Promise<CancelSubscription>;

  /**
   * Optional. Call `listener` with the id of every run that, from now on, starts waiting for a person or ends (a
   * checkpoint with a status other than `running`, a `fail`, a `cancel`), from any process; resolves once listening.
   * `wait` then costs a read when it starts and one when it is told, instead of reading the run's events as they
   * come; a store without it is waited on through its events. A missed message costs time, not correctness: `wait`
   * reads the run again every few seconds.
   */
  onSettled?(listener: (runId: string) => void): Promise<CancelSubscription>;

  /**
   * Optional. The runs the store keeps, newest first, at most `limit`: for tools that show runs (the devtools page),
   * through `AgentRuns.list`. Meant for development and operations, not for every request of an app.
   */
  list?(options: { limit: number }): Promise<RunListing[]>;

  /** Close the store's connections; a read of events in progress ends at once (with no events, or an error). */
  close(): Promise<void>;
}

/** How long runs are kept, and how many events. */
export type RunStoreLimits = {
  /** Seconds a finished run is kept. */
  finishedTtlSeconds: number;
  /** Seconds a run waiting for a person is kept. */
  waitingTtlSeconds: number;
  /** Entries an event stream keeps, approximately. */
  maxEvents: number;
};
