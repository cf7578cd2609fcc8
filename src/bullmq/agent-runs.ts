import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { checkDecisions } from '../internal';
import { openConnection, type RunsClient } from './store/connections';
import { bullQueueName } from './store/keys';
import {
  InvalidDecisionsError,
  InvalidRunIdError,
  ResumeTokenError,
  RunNotFoundError,
  RunStartTooLargeError,
  RunWaitTimeoutError,
} from './errors';
import { hasEnded, readEvents } from './store/event-reader';
import type { RunListing } from './store/list-runs';
import { signResumeToken, tokenSeq, verifyResumeToken } from './resume-token';
import { decisionKey } from './decision-merge';
import { turnJobId } from './worker/run-processor';
import type { TurnJobData } from './worker/run-processor';
import { RedisRunStore } from './store/redis-run-store';
import type { NewRun, RunStore, StoredRun } from './store/run-store';
import { RunWorker } from './worker/run-worker';
import { type Heard, SettleWaiters } from './settle-waiters';
import { ToolCallStore } from './store/tool-call-store';
import { ToolCalls } from './tool-calls';
import { TOOL_CALL_JOB, toolCallJobId, type ToolCallJobData } from './worker/tool-call-processor';
import type { AgentRunsOptions } from './agent-runs-options';
import type {
  CallToolOptions,
  Decision,
  RunEvent,
  RunRecord,
  RunState,
  RunStatus,
  RunWorkerOptions,
  StartRunOptions,
  ToolCallRecord,
} from './types';

const DAY = 24 * 60 * 60;
/** Characters of a run id: it is part of every key, job id and event of the run. */
export const MAX_RUN_ID_LENGTH = 256;
/** Default bytes of a start's body and meta as JSON. */
export const DEFAULT_MAX_START_BYTES = 4 * 1024 * 1024;
/** Default entries kept per event stream. */
export const DEFAULT_MAX_EVENTS = 10_000;

/**
 * Bytes of a start (body and meta, as JSON) up to which its first job carries it, so the worker needs no read before
 * the first model request; a larger start is read from the store (it would be stored twice otherwise).
 */
const MAX_CARRIED_START_BYTES = 64 * 1024;

/** Default turns one job runs before it hands its run back to the queue. */
export const DEFAULT_TURNS_PER_JOB = 25;
/** Default milliseconds one job runs before it hands its run back to the queue (at its next checkpoint). */
export const DEFAULT_JOB_SLICE_MS = 10_000;

/**
 * Agent runs on a BullMQ queue: any process starts, reads, decides or cancels a run, and any worker advances
 * it from the state checkpointed in the store (Redis by default), one job until it waits, ends or has had its
 * share of the worker, one write per turn.
 *
 * @example
 * const runs = new AgentRuns({ connection: { host: '127.0.0.1', port: 6379 }, secret: process.env.RUNS_SECRET! });
 * runs.worker({ setup: async () => ({ client: new OpenAI(), tools: toolsFrom(new WeatherTools()) }) });
 * const { runId } = await runs.start({ body: { model: 'gpt-4o-mini', messages } });
 * for await (const event of runs.events(runId)) console.log(event);
 */
export class AgentRuns {
  /**
   * Only `RunStore` methods are called on it; typed with the Redis store's `keys` for whoever inspects the default
   * store's keys (a store given as `store` has none).
   */
  private readonly store: RunStore & Pick<RedisRunStore, 'keys'>;
  private readonly queue: Queue<TurnJobData | ToolCallJobData>;
  /**
   * The client of the queue's and the workers' commands (BullMQ leaves a client it is given open): the default
   * store's own, or one opened for them beside a store given as `store`.
   */
  private readonly client: RunsClient;
  /** Whether {@link AgentRuns.client} is the default store's (closed with the store). */
  private readonly storeClient: boolean;
  private readonly workers = new Set<RunWorker>();
  /** The queue's name in BullMQ: the name given, as its own hash tag. */
  private readonly queueName: string;
  /** How `wait` learns that a run settled, when the store can tell (the Redis store can). */
  private readonly settles?: SettleWaiters;
  /** Where single tool calls are kept, in Redis whatever the run store. */
  private readonly toolCallStore: ToolCallStore;
  private readonly toolCalls: ToolCalls;

  constructor(private readonly options: AgentRunsOptions) {
    this.queueName = bullQueueName(options.queueName ?? 'agentcall-runs');
    const ownStore = options.store
      ? undefined
      : new RedisRunStore(options.connection, {
          prefix: options.prefix ?? 'agentcall',
          finishedTtlSeconds: options.finishedTtlSeconds ?? 7 * DAY,
          waitingTtlSeconds: options.waitingTtlSeconds ?? 7 * DAY,
          maxEvents: options.maxEvents ?? DEFAULT_MAX_EVENTS,
        });
    this.store = (options.store ?? ownStore) as RunStore & Pick<RedisRunStore, 'keys'>;
    if (this.store.onSettled)
      this.settles = new SettleWaiters(this.store as RunStore & Required<Pick<RunStore, 'onSettled'>>);
    // A client of our own, not the one given: its writes are coalesced, which a client we do not own must not be.
    // The default store's own client: a new run's record and its job then leave in one write, in that order, and a
    // turn's checkpoint, a finished job and the next run's start share writes.
    this.storeClient = ownStore !== undefined;
    this.client = ownStore?.redis ?? openConnection(options.connection);
    this.queue = new Queue<TurnJobData | ToolCallJobData>(this.queueName, { connection: this.client });
    // Connection trouble is reported on the calls that hit it; without a listener Node would throw it.
    this.queue.on('error', () => undefined);
    this.toolCallStore = new ToolCallStore(this.client, options.connection, options.prefix ?? 'agentcall');
    this.toolCalls = new ToolCalls(this.toolCallStore, {
      maxBytes: options.maxStartBytes ?? DEFAULT_MAX_START_BYTES,
      maxTtlMs: (options.finishedTtlSeconds ?? 7 * DAY) * 1000,
      enqueue: (data) => this.addToolCall(data),
    });
  }

  /**
   * Queue a new run; starting an id that exists starts nothing new. An id over 256 characters, with `:`, empty or
   * starting with `}` is an `InvalidRunIdError`; a body and meta over `maxStartBytes` a `RunStartTooLargeError`.
   */
  async start(options: StartRunOptions): Promise<{ runId: string }> {
    const runId = options.runId ?? randomUUID();
    checkRunId(runId);
    const maxBytes = this.options.maxStartBytes ?? DEFAULT_MAX_START_BYTES;
    const bytes =
      Buffer.byteLength(JSON.stringify(options.body) ?? '') + Buffer.byteLength(JSON.stringify(options.meta) ?? '');
    if (bytes > maxBytes) throw new RunStartTooLargeError(bytes, maxBytes);
    const { messages, ...body } = options.body;
    const state: RunState = {
      v: 1,
      runId,
      messages,
      turn: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      loopGuard: { signature: '', repeats: 0 },
      pending: [],
    };
    const meta = options.meta ?? null;
    const carried = bytes <= MAX_CARRIED_START_BYTES ? { start: { state, body, meta } } : {};
    this.settles?.expectNew(runId);
    // A new id on the store's own connection: the run's job goes out right behind its record, in the same write. Not
    // on a Redis Cluster, where the record and the job go to the nodes of their slots, in no order between them.
    if (this.storeClient && options.runId === undefined && !(this.client instanceof Cluster))
      return this.startNew(runId, { runId, state, body, meta }, carried);
    const { created, status, seq } = await this.store.create({ runId, state, body, meta }).catch((error: unknown) => {
      this.settles?.forget(runId);
      throw error;
    });
    if (!created) this.settles?.forget(runId);
    // Also for a start retried after a crash between the two writes: the job id makes this a no-op otherwise. Only
    // the start that created the run is carried by the job: a repeated start's body may not be the stored one.
    if (status === 'queued' && seq === 0) await this.addTurn({ runId, seq: 0, ...(created ? carried : {}) });
    return { runId };
  }

  /**
   * Create a run under an id generated here, and queue its job without waiting for the create: both go out on the
   * default store's connection, so Redis has the run before the job (a worker can only take the job after). An id
   * of 122 random bits names no run yet. Should the create fail, the job is taken back (when no worker has it yet:
   * one that has finds no run, and stops).
   */
  private async startNew(runId: string, run: NewRun, carried: Pick<TurnJobData, 'start'>): Promise<{ runId: string }> {
    const created = this.store.create(run);
    const queued = this.addTurn({ runId, seq: 0, ...carried });
    try {
      if (!(await created).created) throw new Error(`A run with the generated id ${runId} exists already`);
    } catch (error) {
      this.settles?.forget(runId);
      void queued.then(() => this.queue.remove(turnJobId(runId, 0))).catch(() => undefined);
      throw error;
    }
    await queued;
    return { runId };
  }

  /** The run as stored; throws `RunNotFoundError` for an unknown (or expired) id. */
  async get(runId: string): Promise<RunRecord> {
    checkRunId(runId);
    const { run } = await this.store.read(runId);
    if (!run) throw new RunNotFoundError(runId);
    return this.toRecord(runId, run);
  }

  /**
   * The runs the store keeps, newest first (at most `limit`, default 500): for tools that show runs, such as the
   * devtools page. Throws when the store given as `store` has no `list`.
   */
  async list(options: { limit?: number } = {}): Promise<RunListing[]> {
    if (!this.store.list) throw new Error('The run store given to AgentRuns cannot list runs: it has no `list`');
    return this.store.list({ limit: options.limit ?? 500 });
  }

  /** Resolves once the run waits for a person or has ended; rejects with `RunWaitTimeoutError` after `timeoutMs`. */
  async wait(runId: string, options: { timeoutMs?: number } = {}): Promise<RunRecord> {
    checkRunId(runId);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    if (this.settles) return this.waitToldOf(this.settles, runId, deadline, timeoutMs);
    const { run, lastEventId } = await this.store.read(runId);
    if (!run) throw new RunNotFoundError(runId);
    if (settled(run.status)) return this.toRecord(runId, run);
    const reader = this.store.events(runId);
    try {
      let last = lastEventId;
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw new RunWaitTimeoutError(runId, timeoutMs);
        for (const event of await reader.read(last, { blockMs: left })) {
          last = event.id;
          if (event.type === 'status' && settled(event.status)) return await this.get(runId);
        }
      }
    } finally {
      reader.close();
    }
  }

  /**
   * `wait` on a store that names the runs that settle: a read (none for a run this process just created), then one
   * more each time the run is named, unless a job of this process settled it and handed it over as stored.
   */
  private async waitToldOf(settles: SettleWaiters, runId: string, deadline: number, timeoutMs: number) {
    await settles.ready();
    let unread = true;
    for (;;) {
      const next = settles.next(runId);
      try {
        let heard: Heard | false = false;
        // Taken after `next`: a settle from now on wakes it.
        if (unread && settles.takeFresh(runId)) {
          unread = false;
          heard = await next.heard(Math.max(0, deadline - Date.now()));
        } else {
          unread = false;
          const { run } = await this.store.read(runId);
          if (!run) throw new RunNotFoundError(runId);
          if (settled(run.status)) return this.toRecord(runId, run);
          const left = deadline - Date.now();
          if (left <= 0) throw new RunWaitTimeoutError(runId, timeoutMs);
          heard = await next.heard(left);
        }
        if (heard && heard.run && settled(heard.run.status)) return this.toRecord(runId, heard.run);
      } finally {
        next.cancel();
      }
    }
  }

  /**
   * The run's events after `after` (a previous event's `id`; default: from the start), live, until the run ends.
   * A reader that reconnects with the last id it saw misses nothing and sees nothing twice, from any process.
   */
  events(runId: string, options: { after?: string } = {}): AsyncIterable<RunEvent> {
    checkRunId(runId);
    const isGone = async () => {
      const { run } = await this.store.read(runId);
      return !run || hasEnded(run.status);
    };
    return {
      [Symbol.asyncIterator]: () => {
        const reader = this.store.events(runId);
        const inner = readEvents(reader, options.after ?? '0', isGone);
        return {
          next: () => inner.next(),
          // Closing the reader ends a blocked read now, not when it next times out.
          return: (value?: unknown) => {
            reader.close();
            return inner.return(value);
          },
          [Symbol.asyncIterator]() {
            return this;
          },
        };
      },
    };
  }

  /**
   * Answer calls a waiting run waits on; once every pending call has a decision, queue it for whichever worker is
   * free. A partial decision is merged into those the run gathered (from this or any process; a later one for a
   * call replaces an earlier one) and the run keeps waiting: resolves with the calls still `undecided` (`[]` once
   * it goes on). With a `secret`, the run's token (from {@link AgentRuns.resumeToken}) is required: a missing,
   * forged or stale one throws `ResumeTokenError` and changes nothing. Without a `secret`, `decide` refuses
   * (`unconfigured`) unless the runs were made with `allowDecideWithoutToken: true`. No decision, or one for a call
   * the run does not wait on, throws `InvalidDecisionsError`; a malformed `answer` (an `action` other than
   * `'accept'`, `'decline'` or `'cancel'`) throws a `TypeError` naming it.
   *
   * @example
   * const token = await runs.resumeToken(runId);
   * const { undecided } = await runs.decide(runId, { call_1: { approve: true } }, { token });
   * // undecided: ['call_2'] — the run goes on once call_2 is decided too
   */
  async decide(
    runId: string,
    decisions: Record<string, Decision>,
    options: { token?: string | undefined } = {},
  ): Promise<{ undecided: string[] }> {
    checkRunId(runId);
    if (!decisions || typeof decisions !== 'object' || !Object.keys(decisions).length)
      throw new InvalidDecisionsError(runId, []);
    checkDecisions(decisions);
    const secret = this.options.secret;
    if (secret === undefined && this.options.allowDecideWithoutToken !== true)
      throw new ResumeTokenError(runId, 'unconfigured');
    const { run } = await this.store.read(runId);
    if (!run) throw new RunNotFoundError(runId);
    const seq = run.seq;
    const callIds = run.state.pending.map(decisionKey);
    if (secret !== undefined) {
      if (!options.token) throw new ResumeTokenError(runId, 'missing');
      if (!verifyResumeToken(secret, options.token, { runId, seq, callIds })) {
        // The calls of an earlier pause are gone, so a token for an earlier sequence number can only be called stale.
        const claimed = tokenSeq(options.token);
        throw new ResumeTokenError(runId, claimed !== undefined && claimed < seq ? 'stale' : 'forged');
      }
    }
    const unknown = Object.keys(decisions).filter((id) => !callIds.includes(id));
    if (unknown.length) throw new InvalidDecisionsError(runId, unknown);
    const { outcome, undecided } = await this.store.decide(runId, seq, decisions);
    if (outcome === 'missing') throw new RunNotFoundError(runId);
    if (outcome === 'stale') throw new ResumeTokenError(runId, 'stale');
    if (outcome === 'partial') return { undecided };
    await this.addTurn({ runId, seq });
    return { undecided: [] };
  }

  /**
   * The token `decide` needs for the run's current pause, for the app to hand to the person who may decide (reads
   * never carry it). `undefined` when the run is not waiting or the runs have no `secret`; throws
   * `RunNotFoundError` for an unknown (or expired) id.
   */
  async resumeToken(runId: string): Promise<string | undefined> {
    checkRunId(runId);
    const { run } = await this.store.read(runId);
    if (!run) throw new RunNotFoundError(runId);
    const secret = this.options.secret;
    if (run.status !== 'waiting' || secret === undefined) return undefined;
    const callIds = run.state.pending.map(decisionKey);
    return signResumeToken(secret, { runId, seq: run.seq, callIds });
  }

  /** Cancel the run: a waiting or queued run ends at once, a running one is aborted (its tools' signals too). */
  async cancel(runId: string): Promise<void> {
    checkRunId(runId);
    const before = await this.store.cancel(runId);
    if (before === undefined) throw new RunNotFoundError(runId);
  }

  /**
   * Queue one call of a tool, to run on a worker as a job of its own and be read, waited for or cancelled from any
   * process: useful on its own for work that must outlive the process that asked for it (an MCP task served with
   * `tasks: { runs }` is one). A worker gets the tools from `setup({ runId: callId, meta })` (the client it returns
   * goes unused) and runs the named one through `runTool`, with `ctx.idempotencyKey` set to the call id. A worker
   * that dies mid-tool leaves the job to another, which runs the tool again with the same key (at most
   * `maxStalledCount` times more, as a run's tool); a call whose outcome is stored never runs again. A name that is
   * not 1 to 256 characters or arguments that are not an object are a `TypeError`; a `ttlMs` under 1 a
   * `RangeError`, as are arguments and meta over `maxStartBytes`.
   *
   * @example
   * const { callId } = await runs.callTool({ name: 'render_report', arguments: { month: '2026-11' } });
   * const call = await runs.waitToolCall(callId, { timeoutMs: 120_000 });
   * if (call?.status === 'completed') console.log(call.result?.response);
   */
  callTool(options: CallToolOptions): Promise<{ callId: string }> {
    return this.toolCalls.call(options);
  }

  /** The tool call as stored; `undefined` for an id no call has (or whose call expired). */
  getToolCall(callId: string): Promise<ToolCallRecord | undefined> {
    return this.toolCalls.get(callId);
  }

  /**
   * The tool call once it has ended, or as it is when `timeoutMs` (default 60,000) passes; `undefined` for an id no
   * call has. Rejects with the signal's reason when `signal` aborts. Told of the end, with no polling.
   */
  waitToolCall(
    callId: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolCallRecord | undefined> {
    return this.toolCalls.wait(callId, options);
  }

  /**
   * Cancel a working tool call: it is `cancelled` at once and its tool's signal aborts, wherever it runs; an ended
   * call stays as it ended. Resolves with the call as stored (`undefined` for an id no call has).
   */
  cancelToolCall(callId: string): Promise<ToolCallRecord | undefined> {
    return this.toolCalls.cancel(callId);
  }

  /** Start a worker in this process; it advances any run of this queue and runs its tool calls. */
  worker(options: RunWorkerOptions): RunWorker {
    const worker = new RunWorker(
      this.client,
      this.queueName,
      this.store,
      options,
      {
        turnsPerJob: Math.max(1, this.options.turnsPerJob ?? DEFAULT_TURNS_PER_JOB),
        jobSliceMs: this.options.jobSliceMs ?? DEFAULT_JOB_SLICE_MS,
        attempts: this.options.attempts ?? 5,
        eventFlushMs: 25,
        addTurn: (data, delayMs) => this.addTurn(data, delayMs),
        ...(this.settles ? { settles: this.settles } : {}),
      },
      this.toolCallStore,
    );
    this.workers.add(worker);
    return worker;
  }

  /** Close the workers (each job in hand finishes its turn and hands its run back), the queue and the store. */
  async close(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()));
    await Promise.all([this.queue.close(), this.toolCalls.close()]);
    if (!this.storeClient) this.client.disconnect();
    await this.settles?.close();
    await this.store.close();
  }

  private async addTurn(data: TurnJobData, delayMs?: number): Promise<void> {
    await this.queue.add('turn', data, {
      jobId: turnJobId(data.runId, data.seq),
      attempts: this.options.attempts ?? 5,
      backoff: { type: 'exponential', delay: this.options.backoffMs ?? 1000 },
      removeOnComplete: true,
      removeOnFail: { age: DAY },
      ...(delayMs ? { delay: delayMs } : {}),
    });
  }

  private async addToolCall(data: ToolCallJobData): Promise<void> {
    await this.queue.add(TOOL_CALL_JOB, data, {
      jobId: toolCallJobId(data.callId),
      attempts: this.options.attempts ?? 5,
      backoff: { type: 'exponential', delay: this.options.backoffMs ?? 1000 },
      removeOnComplete: true,
      removeOnFail: { age: DAY },
    });
  }

  private toRecord(runId: string, run: StoredRun): RunRecord {
    const record: RunRecord = { runId, status: run.status, state: run.state };
    if (run.stopReason) record.stopReason = run.stopReason;
    if (run.text !== undefined) record.text = run.text;
    if (run.output !== undefined) record.output = run.output;
    if (run.error) record.error = run.error;
    if (run.meta !== null && run.meta !== undefined) record.meta = run.meta;
    if (run.status === 'waiting' && run.decisions) record.decisions = run.decisions;
    return record;
  }
}

/** Throw `InvalidRunIdError` unless `runId` can name a run. */
function checkRunId(runId: string): void {
  if (
    typeof runId !== 'string' ||
    runId.length > MAX_RUN_ID_LENGTH ||
    runId.includes(':') ||
    // The id is the hash tag of the run's keys: an empty tag would make Redis Cluster hash each key whole.
    runId === '' ||
    runId.startsWith('}')
  )
    throw new InvalidRunIdError(runId, MAX_RUN_ID_LENGTH);
}

/** Waiting for a person or ended: what `wait` waits for. */
function settled(status: RunStatus): boolean {
  return status === 'waiting' || hasEnded(status);
}
