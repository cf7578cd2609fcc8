import type { Cluster, Redis } from 'ioredis';
import { openConnection, subscribeTo, type RunsClient } from './connections';
import { mergeDecisions, repeatsDecisions } from '../decision-merge';
import { decodeEvent } from './event-reader';
import { cancelChannel, hashTag, runKeys, settledChannel } from './keys';
import type { RunKeys } from './keys';
import { listRuns, type RunListing } from './list-runs';
import { LuaScript } from './lua-script';
import { lostWritesError } from './lost-writes';
import type {
  CancelSubscription,
  CheckpointInput,
  Claimed,
  DecideOutcome,
  NewRun,
  RunEventReader,
  RunStore,
  RunStoreLimits,
  StoredError,
  StoredRun,
} from './run-store';
import { APPEND_EVENTS, CANCEL, CHECKPOINT, CLAIM, CREATE, DECIDE, FAIL, JOURNAL, READ } from './scripts';
import type { Decision, RunEventData, RunState, RunStatus, RunsConnection } from '../types';

const create = new LuaScript(CREATE, 2);
const read = new LuaScript(READ, 2);
const claim = new LuaScript(CLAIM, 4);
const checkpoint = new LuaScript(CHECKPOINT, 4);
const appendEvents = new LuaScript(APPEND_EVENTS, 3);
const journal = new LuaScript(JOURNAL, 4);
const decide = new LuaScript(DECIDE, 2);
const cancel = new LuaScript(CANCEL, 3);
const fail = new LuaScript(FAIL, 3);

/** Reader connections kept open between readers. */
const MAX_IDLE_READERS = 16;

const DECIDED: Record<number, DecideOutcome> = { 1: 'decided', 4: 'partial', 0: 'stale', [-1]: 'missing' };
/** Reads and merges of one `decide` when other decisions keep coming in between. */
const MAX_DECIDE_TRIES = 20;

/**
 * The default {@link RunStore}: each run is a hash, a journal hash and an event stream under
 * `${prefix}:{${runId}}:…` (one Redis Cluster slot per run), changed by Lua scripts so a status, its sequence
 * number and the events that announce a change never disagree. Cancels go out on `${prefix}:cancel`.
 *
 * @example
 * const store = new RedisRunStore({ host: '127.0.0.1', port: 6379 }, { prefix: 'myapp' });
 * const runs = new AgentRuns({ connection: { host: '127.0.0.1', port: 6379 }, store, secret });
 */
export class RedisRunStore implements RunStore {
  /**
   * The connection of this store's writes and reads (blocking reads and the cancel subscription open their own): a
   * `Cluster` when the store was given one.
   */
  readonly redis: Redis | Cluster;
  readonly prefix: string;
  private readonly limits: RunStoreLimits;
  private readonly connection: RunsConnection;
  /** Connections of readers that closed between reads, for the next readers: opening one costs a few round trips. */
  private readonly idleReaders: RunsClient[] = [];
  /** Connections of readers in a blocking read: closing the store ends their reads at once. */
  private readonly readingNow = new Set<RunsClient>();
  private closed = false;

  constructor(connection: RunsConnection, options: { prefix?: string } & Partial<RunStoreLimits> = {}) {
    this.prefix = options.prefix ?? 'agentcall';
    // The run's id is the hash tag of its keys, unless the prefix holds one that comes first: an empty `{}` there
    // would make Redis Cluster hash each key whole, and split a run's keys over slots.
    if (hashTag(`${this.prefix}:{runId}`) === undefined)
      throw new Error(`A run key prefix cannot hold an empty hash tag '{}': '${this.prefix}'`);
    this.connection = connection;
    this.redis = openConnection(connection);
    const week = 7 * 24 * 60 * 60;
    this.limits = {
      finishedTtlSeconds: options.finishedTtlSeconds ?? week,
      waitingTtlSeconds: options.waitingTtlSeconds ?? week,
      maxEvents: options.maxEvents ?? 10_000,
    };
  }

  /**
   * The Redis keys of a run: for agentcall's own queue code and tests, not part of the store contract.
   *
   * @internal
   */
  keys(runId: string): RunKeys {
    return runKeys(this.prefix, runId);
  }

  async create(run: NewRun): Promise<{ created: boolean; status: RunStatus; seq: number }> {
    const k = this.keys(run.runId);
    // A start queues the run's job right behind this without waiting for it: the job must never land first.
    const [created, status, seq] = (await create.runInOrder(
      this.redis,
      [k.run, k.events],
      [
        JSON.stringify(run.state),
        JSON.stringify(run.body),
        JSON.stringify(run.meta ?? null),
        Date.now(),
        statusData('queued'),
      ],
    )) as [number, RunStatus, string];
    return { created: created === 1, status, seq: Number(seq) };
  }

  async read(runId: string): Promise<{ run?: StoredRun; lastEventId: string }> {
    const k = this.keys(runId);
    // One script rather than a MULTI: one command to send and answer instead of four.
    const [hash, last] = (await read.run(this.redis, [k.run, k.events], [])) as [string[], [string][]];
    return {
      ...(hash.length ? { run: parseRun(runId, pairs(hash, 0, hash.length)) } : {}),
      lastEventId: last[0]?.[0] ?? '0',
    };
  }

  async claim(
    runId: string,
    jobSeq: number,
    options: { attempt: number; withJournal: boolean },
  ): Promise<Claimed | undefined> {
    const k = this.keys(runId);
    const event = options.attempt > 1 ? JSON.stringify({ status: 'running', attempt: options.attempt }) : '';
    // The job waits on its claim before it does anything else: it leaves now, not at the end of the turn.
    const reply = (await claim.run(
      this.redis,
      [k.run, k.events, k.journal, k.provisional],
      [jobSeq, Date.now(), event, options.withJournal ? '1' : '0'],
      true,
    )) as string[];
    if (reply[0] !== 'ok') return undefined;
    const runLength = Number(reply[1]);
    const run = parseRun(runId, pairs(reply, 2, 2 + runLength));
    const journal = new Map(Object.entries(pairs(reply, 2 + runLength, reply.length)));
    return { run, journal };
  }

  async checkpoint(input: CheckpointInput): Promise<number | undefined> {
    const k = this.keys(input.runId);
    const events = [...input.events];
    if (input.status !== 'running')
      events.push({
        type: 'status',
        status: input.status,
        ...(input.stopReason ? { stopReason: input.stopReason } : {}),
      });
    const args: (string | number)[] = [
      input.seq,
      JSON.stringify(input.state),
      input.status,
      input.stopReason ?? '',
      input.text ?? '',
      input.error ? JSON.stringify(input.error) : '',
      input.output !== undefined ? JSON.stringify(input.output) : '',
      this.limits.finishedTtlSeconds,
      Date.now(),
      this.limits.maxEvents,
      this.limits.waitingTtlSeconds,
      input.handOff ? '1' : '0',
      events.length,
      settledChannel(this.prefix),
      input.runId,
      input.keepJournal ? '1' : '0',
      input.writes ?? '',
    ];
    pushEvents(args, events);
    const next = (await checkpoint.run(this.redis, [k.run, k.journal, k.events, k.provisional], args)) as number;
    return next >= 0 ? next : refused(input.runId, next, input.writes);
  }

  async journal(
    runId: string,
    entries: Record<string, string>,
    events: RunEventData[],
    writes?: number,
  ): Promise<void> {
    const k = this.keys(runId);
    const fields = Object.entries(entries);
    const args: (string | number)[] = [this.limits.maxEvents, writes ?? '', fields.length];
    for (const [field, value] of fields) args.push(field, value);
    pushEvents(args, events);
    // A tool call waits on it (its response is journaled before it runs): it leaves now, not at the end of the turn.
    refused(
      runId,
      (await journal.run(this.redis, [k.journal, k.events, k.provisional, k.run], args, true)) as number,
      writes,
    );
  }

  async appendEvents(runId: string, events: RunEventData[], writes?: number): Promise<void> {
    // Counted writes are made even when empty: the job counted this one.
    if (!events.length && writes === undefined) return;
    const k = this.keys(runId);
    const args: (string | number)[] = [this.limits.maxEvents, this.limits.finishedTtlSeconds, writes ?? ''];
    pushEvents(args, events);
    refused(runId, (await appendEvents.run(this.redis, [k.events, k.provisional, k.run], args)) as number, writes);
  }

  async decide(
    runId: string,
    seq: number,
    decisions: Record<string, Decision>,
  ): Promise<{ outcome: DecideOutcome; undecided: string[] }> {
    const k = this.keys(runId);
    // The merge is made here and saved only if no other decision came in between: a few tries, each one read.
    for (let tries = 0; ; tries++) {
      const [status, storedSeq, stored, state] = await this.redis.hmget(k.run, 'status', 'seq', 'decisions', 'state');
      if (status === null) return { outcome: 'missing', undecided: [] };
      const gathered = stored ? (JSON.parse(stored) as Record<string, Decision>) : undefined;
      if (storedSeq !== String(seq)) return { outcome: 'stale', undecided: [] };
      if (status === 'queued' && repeatsDecisions(gathered, decisions)) return { outcome: 'repeated', undecided: [] };
      if (status !== 'waiting' || state === null) return { outcome: 'stale', undecided: [] };
      const { merged, undecided } = mergeDecisions((JSON.parse(state) as RunState).pending, gathered, decisions);
      const saved = (await decide.run(
        this.redis,
        [k.run, k.events],
        [seq, stored ?? '', JSON.stringify(merged), undecided.length ? '0' : '1', Date.now(), statusData('queued')],
      )) as number;
      if (saved === 3 && tries < MAX_DECIDE_TRIES) continue;
      const outcome = DECIDED[saved] ?? 'stale';
      return { outcome, undecided: outcome === 'partial' ? undecided : [] };
    }
  }

  async cancel(runId: string): Promise<RunStatus | undefined> {
    const k = this.keys(runId);
    const before = (await cancel.run(
      this.redis,
      [k.run, k.journal, k.events],
      [
        this.limits.finishedTtlSeconds,
        cancelChannel(this.prefix),
        runId,
        Date.now(),
        JSON.stringify({ status: 'cancelled', stopReason: 'aborted' }),
      ],
    )) as RunStatus | null;
    return before ?? undefined;
  }

  async fail(runId: string, jobSeq: number, error: StoredError): Promise<boolean> {
    const k = this.keys(runId);
    const event = JSON.stringify({ status: 'failed', stopReason: 'error' });
    const args = [
      jobSeq,
      JSON.stringify(error),
      this.limits.finishedTtlSeconds,
      Date.now(),
      event,
      settledChannel(this.prefix),
      runId,
    ];
    return ((await fail.run(this.redis, [k.run, k.journal, k.events], args)) as number) === 1;
  }

  events(runId: string): RunEventReader {
    const key = this.keys(runId).events;
    // A blocking read holds its connection: each reader has one of its own while it is open.
    let connection: RunsClient | undefined;
    let reading = false;
    return {
      read: async (after, { blockMs, count = 500 }) => {
        connection ??= this.idleReaders.pop() ?? this.redis.duplicate();
        const reader = connection;
        reading = true;
        this.readingNow.add(reader);
        try {
          const reply = await reader.xread('COUNT', count, 'BLOCK', Math.max(1, blockMs), 'STREAMS', key, after);
          return (reply?.[0]?.[1] ?? []).map(([id, fields]) => decodeEvent(id, fields));
        } finally {
          reading = false;
          this.readingNow.delete(reader);
        }
      },
      close: () => {
        if (!connection) return;
        // A read in progress ends only when its connection does; an idle one is kept for the next reader.
        if (reading || this.closed || this.idleReaders.length >= MAX_IDLE_READERS) connection.disconnect();
        else this.idleReaders.push(connection);
        connection = undefined;
      },
    };
  }

  async onCancel(listener: (runId: string) => void): Promise<CancelSubscription> {
    return this.subscribe([cancelChannel(this.prefix)], listener);
  }

  async onSettled(listener: (runId: string) => void): Promise<CancelSubscription> {
    return this.subscribe([settledChannel(this.prefix), cancelChannel(this.prefix)], listener);
  }

  /** Call `listener` with each message on `channels` (run ids), on a connection of its own. */
  private subscribe(channels: string[], listener: (runId: string) => void): Promise<CancelSubscription> {
    return subscribeTo(this.connection, channels, listener);
  }

  /** The runs under this store's prefix, newest first: a `SCAN` of the keys (see `listRuns`). */
  list(options: { limit: number }): Promise<RunListing[]> {
    return listRuns(this.redis, { prefix: this.prefix, limit: options.limit });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reader of this.idleReaders.splice(0)) reader.disconnect();
    for (const reader of this.readingNow) reader.disconnect();
    this.redis.disconnect();
  }
}

/** The stream fields of an event: its type, and the rest as JSON. */
export function encodeEvent(event: RunEventData): [string, string, string, string] {
  const { type, ...data } = event;
  return ['type', type, 'data', JSON.stringify(data)];
}

/** A run from its hash: every value there is a string. */
function parseRun(runId: string, hash: Record<string, string>): StoredRun {
  const run: StoredRun = {
    runId,
    status: hash.status as RunStatus,
    seq: Number(hash.seq),
    jobSeq: Number(hash.jobSeq ?? hash.seq),
    state: JSON.parse(hash.state) as RunState,
    body: JSON.parse(hash.body ?? '{}') as Record<string, unknown>,
    meta: JSON.parse(hash.meta ?? 'null') as unknown,
  };
  if (hash.decisions) run.decisions = JSON.parse(hash.decisions) as Record<string, Decision>;
  if (hash.stopReason) run.stopReason = hash.stopReason;
  if (hash.text !== undefined) run.text = hash.text;
  if (hash.output) run.output = JSON.parse(hash.output) as unknown;
  if (hash.error) run.error = JSON.parse(hash.error) as StoredError;
  if (hash.writes !== undefined) run.writes = Number(hash.writes);
  return run;
}

/**
 * What a job's refused write means: `undefined` when the run moved on (another job or a cancel has it); throws when
 * the store is behind the job's count of its writes, that is, lost writes it had answered.
 */
function refused(runId: string, code: number, writes: number | undefined): undefined {
  if (code === -3) throw lostWritesError(runId, `it holds fewer than the ${writes} writes the job counted`);
  return undefined;
}

function statusData(status: RunStatus): string {
  return JSON.stringify({ status });
}

function pairs(list: string[], from: number, to: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = from; i + 1 < to; i += 2) out[list[i]] = list[i + 1];
  return out;
}

/** Add each event's (type, data) to a script's arguments, as the scripts read them. */
function pushEvents(args: (string | number)[], events: readonly RunEventData[]): void {
  for (const event of events) {
    const [, type, , data] = encodeEvent(event);
    args.push(type, data);
  }
}
