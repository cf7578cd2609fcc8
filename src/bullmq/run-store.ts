import type { Redis } from 'ioredis';
import type { ToolExecuteResult } from '../index';
import { cancelChannel, runKeys } from './keys';
import { LuaScript } from './lua-script';
import { CANCEL, CHECKPOINT, CLAIM, CREATE, DECIDE, FAIL } from './scripts';
import type { RunEventData, RunState, RunStatus } from './types';

const create = new LuaScript(CREATE, 2);
const claim = new LuaScript(CLAIM, 3);
const checkpoint = new LuaScript(CHECKPOINT, 3);
const decide = new LuaScript(DECIDE, 2);
const cancel = new LuaScript(CANCEL, 3);
const fail = new LuaScript(FAIL, 3);

/** A run's hash as stored: every value a string. */
export type StoredRun = Record<string, string>;

/** What a turn saves. Empty strings delete an optional field. */
export type CheckpointInput = {
  runId: string;
  seq: number;
  state: RunState;
  status: RunStatus;
  stopReason?: string;
  text?: string;
  error?: { name: string; message: string; status?: number };
  /** The seed-style resume data of a run paused by an interactive tool. */
  interactive?: unknown;
  events: RunEventData[];
};

/** What `claim` handed a worker. */
export type Claimed = { run: StoredRun; journal: Map<string, string> };

/** How long runs are kept, and how many events. */
export type RunStoreLimits = {
  /** Seconds a finished run is kept. */
  finishedTtlSeconds: number;
  /** Seconds a run waiting for a person is kept. */
  waitingTtlSeconds: number;
  /** Entries an event stream keeps, approximately. */
  maxEvents: number;
};

/** Reads and writes runs in Redis; every change of status goes through one atomic script. */
export class RunStore {
  private readonly finishedTtlSeconds: number;

  constructor(
    readonly redis: Redis,
    readonly prefix: string,
    private readonly limits: RunStoreLimits,
  ) {
    this.finishedTtlSeconds = limits.finishedTtlSeconds;
  }

  keys(runId: string) {
    return runKeys(this.prefix, runId);
  }

  /** Create a queued run unless one with this id exists; returns whether it was created and where it stands. */
  async create(
    runId: string,
    state: RunState,
    body: unknown,
    meta: unknown,
  ): Promise<{ created: boolean; status: RunStatus; seq: number }> {
    const k = this.keys(runId);
    const [created, status, seq] = (await create.run(
      this.redis,
      [k.run, k.events],
      [JSON.stringify(state), JSON.stringify(body), JSON.stringify(meta ?? null), Date.now(), statusData('queued')],
    )) as [number, RunStatus, string];
    return { created: created === 1, status, seq: Number(seq) };
  }

  /** The run for job `seq`, marked running; `undefined` when the job is stale or the run is not runnable. */
  async claim(runId: string, seq: number, attempt: number, withJournal: boolean): Promise<Claimed | undefined> {
    const k = this.keys(runId);
    const event = attempt > 1 ? JSON.stringify({ status: 'running', attempt }) : '';
    const reply = (await claim.run(
      this.redis,
      [k.run, k.events, k.journal],
      [seq, Date.now(), event, withJournal ? '1' : '0'],
    )) as string[];
    if (reply[0] !== 'ok') return undefined;
    const runLength = Number(reply[1]);
    const run = pairs(reply, 2, 2 + runLength);
    const journal = new Map(Object.entries(pairs(reply, 2 + runLength, reply.length)));
    return { run, journal };
  }

  /** Save a turn; the new sequence number, or `undefined` when another worker or a cancel got there first. */
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
      input.interactive === undefined ? '' : JSON.stringify(input.interactive),
      this.finishedTtlSeconds,
      Date.now(),
      this.limits.maxEvents,
      this.limits.waitingTtlSeconds,
      events.length,
    ];
    for (const event of events) {
      const [, type, , data] = encodeEvent(event);
      args.push(type, data);
    }
    const next = (await checkpoint.run(this.redis, [k.run, k.journal, k.events], args)) as number;
    return next >= 0 ? next : undefined;
  }

  /** Journal a finished call (`key` is `${runId}:${call.id}`), with recorded responses and buffered events: one round-trip. */
  async journal(
    runId: string,
    key: string,
    result: ToolExecuteResult,
    tape: Record<string, string>,
    events: RunEventData[],
  ): Promise<void> {
    const k = this.keys(runId);
    const pipeline = this.redis.pipeline();
    pipeline.hset(k.journal, { ...tape, [`call:${key}`]: JSON.stringify(result) });
    for (const event of events) this.addEvent(pipeline, k.events, event);
    await execPipeline(pipeline);
  }

  /** Append events outside a checkpoint. */
  async appendEvents(runId: string, events: RunEventData[]): Promise<void> {
    if (!events.length) return;
    const k = this.keys(runId);
    const pipeline = this.redis.pipeline();
    for (const event of events) this.addEvent(pipeline, k.events, event);
    await execPipeline(pipeline);
  }

  /** Give a waiting run at `seq` its decisions: 1 done, 2 done before with the same decisions, 0 stale, -1 none. */
  async decide(runId: string, seq: number, decisions: string): Promise<number> {
    const k = this.keys(runId);
    return (await decide.run(
      this.redis,
      [k.run, k.events],
      [seq, decisions, Date.now(), statusData('queued')],
    )) as number;
  }

  /** Cancel a run that has not ended; returns its status before, or `undefined` when there is no such run. */
  async cancel(runId: string): Promise<RunStatus | undefined> {
    const k = this.keys(runId);
    const before = (await cancel.run(
      this.redis,
      [k.run, k.journal, k.events],
      [
        this.finishedTtlSeconds,
        cancelChannel(this.prefix),
        runId,
        Date.now(),
        JSON.stringify({ status: 'cancelled', stopReason: 'aborted' }),
      ],
    )) as RunStatus | null;
    return before ?? undefined;
  }

  /** Fail the run at `seq` after its job was given up on; false when the run had moved on. */
  async fail(runId: string, seq: number, error: { name: string; message: string }): Promise<boolean> {
    const k = this.keys(runId);
    const event = JSON.stringify({ status: 'failed', stopReason: 'error' });
    const args = [seq, JSON.stringify(error), this.finishedTtlSeconds, Date.now(), event];
    return ((await fail.run(this.redis, [k.run, k.journal, k.events], args)) as number) === 1;
  }

  /** Queue an event on `pipeline`, trimming the stream to about `maxEvents` (`~`: whole nodes only, cheap). */
  private addEvent(pipeline: ReturnType<Redis['pipeline']>, key: string, event: RunEventData): void {
    pipeline.xadd(key, 'MAXLEN', '~', this.limits.maxEvents, '*', ...encodeEvent(event));
  }

  /** The stored run and the id of its last event, read together (one transaction). */
  async read(runId: string): Promise<{ run?: StoredRun; lastEventId: string }> {
    const k = this.keys(runId);
    const replies = await this.redis.multi().hgetall(k.run).xrevrange(k.events, '+', '-', 'COUNT', 1).exec();
    if (!replies) throw new Error('Redis transaction aborted');
    const [[runError, run], [eventsError, last]] = replies as [[Error | null, StoredRun], [Error | null, [string][]]];
    if (runError) throw runError;
    if (eventsError) throw eventsError;
    return { run: Object.keys(run).length ? run : undefined, lastEventId: last[0]?.[0] ?? '0' };
  }
}

/** The stream fields of an event: its type, and the rest as JSON. */
export function encodeEvent(event: RunEventData): [string, string, string, string] {
  const { type, ...data } = event;
  return ['type', type, 'data', JSON.stringify(data)];
}

function statusData(status: RunStatus): string {
  return JSON.stringify({ status });
}

function pairs(list: string[], from: number, to: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = from; i + 1 < to; i += 2) out[list[i]] = list[i + 1];
  return out;
}

async function execPipeline(pipeline: ReturnType<Redis['pipeline']>): Promise<void> {
  const replies = await pipeline.exec();
  const failed = replies?.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
}
