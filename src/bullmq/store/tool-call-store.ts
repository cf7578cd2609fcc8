import { subscribeTo, type RunsClient } from './connections';
import { LuaScript } from './lua-script';
import type { RunsConnection, StoredToolResult, ToolCallRecord, ToolCallStatus } from '../types';

/**
 * KEYS: call. ARGV: name, meta, now, ttl ms. Creates the call's hash, expiring after the ttl (a write keeps it).
 * → 1 when created, 0 when the id was taken.
 */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'status', 'working', 'meta', ARGV[2], 'createdAt', ARGV[3],
  'updatedAt', ARGV[3], 'ttlMs', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/** KEYS: call. ARGV: status message, now. Only a working call's message changes. → 1 | 0 */
const STATUS = `
if redis.call('HGET', KEYS[1], 'status') ~= 'working' then return 0 end
redis.call('HSET', KEYS[1], 'statusMessage', ARGV[1], 'updatedAt', ARGV[2])
return 1
`;

/**
 * KEYS: call. ARGV: status ('completed' | 'failed' | 'cancelled'), its field ('result' | 'error' | ''), the field's
 * JSON, now, channel, call id. The first end wins: an ended (or expired) call stays as it is. A cancel goes out on
 * the channel for the worker running the call and for the waiters; any other end only for the waiters.
 * → the status the call had before (nil when not found).
 */
const END = `
local before = redis.call('HGET', KEYS[1], 'status')
if before ~= 'working' then return before end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'updatedAt', ARGV[4])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return before
`;

const create = new LuaScript(CREATE, 1);
const status = new LuaScript(STATUS, 1);
const end = new LuaScript(END, 1);

/** Characters of a call's status message (a tool's progress text, shown to a client's user). */
export const MAX_STATUS_MESSAGE_CHARS = 500;

/** A call id as `callTool` makes them (a UUID): anything else names no call, and is never sent to Redis. */
const CALL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `callId` can name a call; a value that is not a string is a `TypeError`. */
export function isCallId(callId: unknown): callId is string {
  if (typeof callId !== 'string') throw new TypeError(`A tool call id is a string, not ${typeof callId}`);
  return CALL_ID.test(callId);
}

/**
 * The queued tool calls in Redis: a hash per call under `${prefix}:{${callId}}:tool-call` (its id as its hash tag, so
 * a Redis Cluster keeps it in one slot as it does a run's keys), expiring after the call's ttl. Cancels go out on
 * `${prefix}:tool-call-cancel`, other ends on `${prefix}:tool-call-settled`: the channels of the runs carry run ids
 * only, and a run store given as `store` may not be Redis at all.
 */
export class ToolCallStore {
  constructor(
    private readonly redis: RunsClient,
    private readonly connection: RunsConnection,
    private readonly prefix: string,
  ) {}

  /** The channel cancels go out on (the workers running calls listen). */
  get cancelChannel(): string {
    return `${this.prefix}:tool-call-cancel`;
  }

  /** The channel the other ends go out on (with the cancels, what waiters listen to). */
  get settledChannel(): string {
    return `${this.prefix}:tool-call-settled`;
  }

  async create(callId: string, call: { name: string; meta: unknown; ttlMs: number }): Promise<boolean> {
    const created = await create.run(
      this.redis,
      [this.key(callId)],
      [call.name, JSON.stringify(call.meta ?? null), Date.now(), call.ttlMs],
    );
    return created === 1;
  }

  async read(callId: string): Promise<ToolCallRecord | undefined> {
    const hash = await this.redis.hgetall(this.key(callId));
    return hash.status === undefined ? undefined : parseCall(callId, hash);
  }

  /** Keep `message` (cut to 500 characters) as a working call's status message. */
  async status(callId: string, message: string): Promise<void> {
    await status.run(this.redis, [this.key(callId)], [message.slice(0, MAX_STATUS_MESSAGE_CHARS), Date.now()]);
  }

  /** Store how a working call ended; the status it had before (`undefined`: not found, or expired). */
  async end(
    callId: string,
    outcome:
      | { status: 'completed'; result: StoredToolResult }
      | { status: 'failed'; error: { name: string; message: string } }
      | { status: 'cancelled' },
  ): Promise<ToolCallStatus | undefined> {
    const [field, json] =
      outcome.status === 'completed'
        ? ['result', JSON.stringify(outcome.result)]
        : outcome.status === 'failed'
          ? ['error', JSON.stringify(outcome.error)]
          : ['', ''];
    const channel = outcome.status === 'cancelled' ? this.cancelChannel : this.settledChannel;
    const before = await end.run(
      this.redis,
      [this.key(callId)],
      [outcome.status, field, json, Date.now(), channel, callId],
    );
    return typeof before === 'string' ? (before as ToolCallStatus) : undefined;
  }

  /** Call `listener` with each call id named on `channels`, on a connection of its own. */
  subscribe(channels: string[], listener: (callId: string) => void): Promise<{ close(): Promise<void> }> {
    return subscribeTo(this.connection, channels, listener);
  }

  private key(callId: string): string {
    return `${this.prefix}:{${callId}}:tool-call`;
  }
}

function parseCall(callId: string, hash: Record<string, string>): ToolCallRecord {
  const record: ToolCallRecord = {
    callId,
    name: hash.name ?? '',
    status: hash.status as ToolCallStatus,
    createdAt: new Date(Number(hash.createdAt)).toISOString(),
    lastUpdatedAt: new Date(Number(hash.updatedAt)).toISOString(),
    ttlMs: Number(hash.ttlMs),
  };
  if (hash.statusMessage !== undefined) record.statusMessage = hash.statusMessage;
  if (hash.result !== undefined) record.result = JSON.parse(hash.result) as StoredToolResult;
  if (hash.error !== undefined) record.error = JSON.parse(hash.error) as { name: string; message: string };
  const meta: unknown = hash.meta !== undefined ? JSON.parse(hash.meta) : null;
  if (meta !== null) record.meta = meta;
  return record;
}
