import type { Cluster, Redis, RedisOptions } from 'ioredis';
import type {
  Decision,
  LLMClient,
  LLMRequestBody,
  RunAgentCallProps,
  RunState,
  RunToolResult,
  ToolDefinition,
} from '../index';
import type { RunStatus } from './run-data';

export type { Decision, PendingCall, RunState } from '../index';
export type { RunEvent, RunEventData, RunStatus } from './run-data';

/** A run as stored in Redis. */
export type RunRecord = {
  runId: string;
  status: RunStatus;
  state: RunState;
  /** Why the run stopped (set once it waits or has ended). */
  stopReason?: string;
  /** The last assistant text of the run (set once it has ended). */
  text?: string;
  /**
   * The run's typed answer, when its setup gave `output` and the answer passed (set once it has completed): the
   * validated value as JSON, so a class instance comes back as a plain object (`plainToInstance` makes it one).
   */
  output?: unknown;
  /** Why a failed run failed: its name and message, secrets masked, the message cut to 2,000 characters. */
  error?: { name: string; message: string; status?: number };
  /** What `start` was given as `meta`. */
  meta?: unknown;
  /** While the run waits: the decisions `decide` gathered so far, for calls of `state.pending` (the others wait on). */
  decisions?: Record<string, Decision>;
};

/**
 * The Redis the runs use, as BullMQ takes it (its `ConnectionOptions`): ioredis options such as
 * `{ host: '127.0.0.1', port: 6379, password }`, an ioredis client, or an ioredis `Cluster` (Redis Cluster: the
 * queue's keys and each run's keys carry hash tags, so every script stays in one slot). Of a client or a cluster only
 * the options (and a cluster's startup nodes) are taken: each connection the runs need (a blocking read or a
 * subscription holds one) is opened from them, and the one given is neither used nor changed.
 */
export type RunsConnection = RedisOptions | Redis | Cluster;

/**
 * The client of a queued run: any openai SDK client (`new OpenAI()`, openai 6 or 7, from CommonJS or ESM) fits
 * without a cast. Structural like the core's `LLMClient`, plus `withOptions`, through which the worker records
 * the model's responses so a retried turn replays them.
 */
export type QueuedRunClient = LLMClient & {
  withOptions(options: { fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response> }): LLMClient;
};

/**
 * What `setup` gives a run: its client and tools, and any other `runAgentLoop` props. No `stateSecret`: the states a
 * worker resumes from are the queue's own, read from Redis, and count as verified (their `caller` stands in when
 * `setup` gives none).
 */
export type RunSetup = { client: QueuedRunClient; tools: ToolDefinition[] } & Partial<
  Omit<
    RunAgentCallProps,
    'body' | 'tools' | 'client' | 'abortSignal' | 'resumeFrom' | 'decisions' | 'journal' | 'runId' | 'stateSecret'
  >
>;

/** Options of `runs.worker(...)`. */
export type RunWorkerOptions = {
  /** Jobs one worker runs at once (default 1). */
  concurrency?: number;
  /**
   * Called per job with the run's id and meta; gives the run its client and tools. A queued tool call's job calls it
   * with the call's id as `runId` and its meta, and uses the tools (and `caller`, `toolTimeoutMs`) only.
   */
  setup: (run: { runId: string; meta?: unknown }) => Promise<RunSetup>;
  /**
   * BullMQ lock duration in ms (default 6000, renewed every quarter): a worker that does not renew its lock in time
   * (a dead process, or an event loop blocked by a tool for about three quarters of it) loses the job to another
   * worker. A killed worker's run goes on elsewhere within about `lockDuration` plus `stalledInterval`.
   */
  lockDuration?: number;
  /** How often workers look for stalled jobs, in ms (default a third of `lockDuration`). */
  stalledInterval?: number;
  /** Times a job may stall before it fails (default 3). */
  maxStalledCount?: number;
};

/** Arguments of `runs.start(...)`. */
export type StartRunOptions = {
  /** The chat-completions body; `messages` is the run's starting history. */
  body: Omit<LLMRequestBody, 'tools'>;
  /** Any JSON value handed to `setup` (user, tenant, which tools). */
  meta?: unknown;
  /**
   * A run id of your own (1 to 256 characters, no `:`, not starting with `}`); starting the same id twice starts one
   * run.
   */
  runId?: string;
};

/** Where a queued tool call is: running (or waiting for a worker), or ended one of three ways. */
export type ToolCallStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/**
 * What a queued tool call stored of its `runTool` result: the text the model would read, how it ended, and what an
 * MCP client gets besides the text (`content`, `structuredContent`), as the tool returned them. Never the thrown
 * error itself (its masked text is `response`).
 */
export type StoredToolResult = Pick<
  RunToolResult,
  'response' | 'outcome' | 'content' | 'structuredContent' | 'interactive' | 'attempts'
>;

/** Arguments of `runs.callTool(...)`. */
export type CallToolOptions = {
  /** The tool's name, as `setup` gives the tool (1 to 256 characters). */
  name: string;
  /** The tool's arguments (validated by the tool, as any call's). */
  arguments?: Record<string, unknown>;
  /** Any JSON value handed to `setup` (user, tenant, which tools) and kept with the call. */
  meta?: unknown;
  /**
   * Milliseconds the call and its outcome are kept after it was queued (default one hour, at most
   * `finishedTtlSeconds`); a call still running then is forgotten, and its outcome never stored.
   */
  ttlMs?: number;
};

/** A queued tool call as stored in Redis. */
export type ToolCallRecord = {
  callId: string;
  /** The tool's name. */
  name: string;
  status: ToolCallStatus;
  /** The latest `ctx.progress` message of the tool (cut to 500 characters), while it runs and after. */
  statusMessage?: string;
  /** The tool's result, once `completed` (a tool that threw or timed out completes too, with `outcome` saying so). */
  result?: StoredToolResult;
  /** Why the call `failed`: its job was given up (`setup` threw on every attempt, say); secrets masked, cut. */
  error?: { name: string; message: string };
  /** What `callTool` was given as `meta`. */
  meta?: unknown;
  /** When it was queued and last changed, as ISO 8601 text. */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long it is kept after it was queued. */
  ttlMs: number;
};
