import type { Redis } from 'ioredis';
import type { Decision, RunState } from '../../index';
import { listRuns } from '../../bullmq';
import type { AgentRuns, RunEvent, RunListing, RunRecord } from '../../bullmq';
import { getErrText } from '../../index';
import { inputText, MAX_TOOL_NAMES, RunModel } from '../run-model';
import { nameText } from '../safe-text';
import type { RunSource } from '../source';
import type { RunSummary } from '../types';
import { pendingViews, readModelResponses, withDecided } from './state-view';

/** Options of {@link bullmqRunSource}. */
export type BullmqRunSourceOptions = {
  /** The runs to show and steer. Give it the runs' `secret` so that the page can approve and reject. */
  runs: AgentRuns;
  /**
   * A Redis client on the runs' Redis, to list the runs under `prefix` from. Without it the runs' own store lists
   * them (`runs.list()`), whatever the store is.
   */
  connection?: Redis;
  /** The runs' `prefix`, with `connection` (default `'agentcall'`). */
  prefix?: string;
  /** How often the list is read again, in ms (default 1000). */
  pollMs?: number;
  /** Runs whose events are followed at once (default 50); the least recently opened stops past it. */
  maxFollowed?: number;
  /** Milliseconds a call may take before the page says Redis (or the runs' store) does not answer (default 3000). */
  timeoutMs?: number;
};

type Followed = {
  model: RunModel;
  lastEventId?: string;
  reader?: AsyncIterator<RunEvent>;
  /** `updatedAt` of the record last read. */
  readAt?: number;
  record?: RunRecord;
};

/**
 * The runs of an `AgentRuns` queue as a devtools source: the list from Redis, each opened run followed through
 * `runs.events` (from any worker, across pauses and retries), approvals through `runs.decide` with the run's
 * `runs.resumeToken` (the runs gather a pause's decisions call by call), and `runs.cancel`.
 */
export function bullmqRunSource(options: BullmqRunSourceOptions): RunSource {
  const { runs } = options;
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxFollowed = options.maxFollowed ?? 50;
  const followed = new Map<string, Followed>();
  const summaries = new Map<string, { updatedAt: number; summary: RunSummary }>();
  const listeners = new Set<(runId?: string) => void>();
  const notify = (runId?: string) => listeners.forEach((listener) => listener(runId));
  let listing: RunListing[] = [];
  let problem: string | undefined;
  let closed = false;

  const setProblem = (next: string | undefined) => {
    if (next === problem) return;
    problem = next;
    notify();
  };
  // Without a Redis connection of its own, the source reads everything through the runs' store, whatever it is.
  const reached = options.connection ? 'Redis' : "The runs' store";
  const guarded = async <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${reached} did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      if (isConnectionError(error)) setProblem(`${reached} is unreachable: ${getErrText(error)}. Retrying…`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  const poll = async () => {
    try {
      const next = await guarded(
        options.connection ? listRuns(options.connection, { prefix: options.prefix }) : runs.list(),
      );
      const before = new Map(listing.map((run) => [run.runId, run.updatedAt]));
      listing = next;
      setProblem(undefined);
      for (const run of next) if (before.get(run.runId) !== run.updatedAt) notify(run.runId);
      if (next.length !== before.size) notify();
      for (const [runId, entry] of followed) if (!entry.reader) follow(runId, entry);
    } catch {
      // Said on the page through `problem`; the next poll tries again.
    }
  };
  let polling: Promise<void> = poll();
  const timer = setInterval(() => {
    polling = polling.then(poll);
  }, options.pollMs ?? 1000);
  timer.unref();

  const follow = (runId: string, entry: Followed) => {
    if (closed || entry.record?.status === undefined) return;
    const iterable = runs.events(runId, entry.lastEventId ? { after: entry.lastEventId } : {});
    const reader = iterable[Symbol.asyncIterator]();
    entry.reader = reader;
    void (async () => {
      try {
        for (;;) {
          const next = await reader.next();
          if (next.done) break;
          apply(entry, next.value);
          if (entry.record && next.value.type === 'status') entry.readAt = undefined;
          notify(runId);
        }
      } catch {
        // Redis went away: `poll` follows again from the last event once it answers.
        if (entry.reader === reader) entry.reader = undefined;
      }
    })();
  };

  const open = async (runId: string): Promise<Followed | undefined> => {
    let entry = followed.get(runId);
    if (entry) {
      followed.delete(runId);
      followed.set(runId, entry);
    } else {
      entry = { model: new RunModel(runId) };
      followed.set(runId, entry);
      for (const [oldId, old] of followed) {
        if (followed.size <= maxFollowed) break;
        followed.delete(oldId);
        void old.reader?.return?.();
      }
    }
    const listed = listing.find((run) => run.runId === runId);
    if (!entry.record || entry.readAt !== listed?.updatedAt) {
      try {
        entry.record = await guarded(runs.get(runId));
      } catch (error) {
        if (message(error).includes('not found') || (error as Error).name === 'RunNotFoundError') {
          followed.delete(runId);
          return undefined;
        }
        throw error;
      }
      entry.readAt = listed?.updatedAt;
      absorb(entry.model, entry.record, listed);
    }
    if (!entry.reader) follow(runId, entry);
    return entry;
  };

  const summaryOf = async (run: RunListing): Promise<RunSummary> => {
    const cached = summaries.get(run.runId);
    if (cached && cached.updatedAt === run.updatedAt) return cached.summary;
    const record = await guarded(runs.get(run.runId));
    const model = followed.get(run.runId)?.model;
    const input = inputText(record.state.messages);
    const summary: RunSummary = {
      runId: run.runId,
      status: record.status,
      ...(run.model ? { model: run.model } : {}),
      turns: record.state.turn,
      inputTokens: record.state.usage.inputTokens,
      outputTokens: record.state.usage.outputTokens,
      startedAt: run.createdAt,
      updatedAt: run.updatedAt,
      ...(record.stopReason ? { stopReason: record.stopReason } : {}),
      toolCalls: model?.summary().toolCalls ?? countCalls(record),
      tools: toolNames(record.state),
      ...(input !== undefined ? { input } : {}),
    };
    summaries.set(run.runId, { updatedAt: run.updatedAt, summary });
    return summary;
  };

  return {
    list: async () => {
      await polling;
      if (problem) throw new Error(problem);
      const shown = listing.slice(0, 200);
      const out = await Promise.all(shown.map((run) => summaryOf(run).catch(() => undefined)));
      return out.filter((summary): summary is RunSummary => summary !== undefined);
    },
    page: async (runId, page) => {
      const entry = await open(runId);
      if (!entry) return undefined;
      const waiting = entry.record?.status === 'waiting';
      const running = ['queued', 'running', 'waiting'].includes(entry.record?.status ?? '');
      const out = entry.model.page(page, { canDecide: waiting, canCancel: running });
      out.pending = withDecided(out.pending, (waiting && entry.record?.decisions) || {});
      // The stored record is the truth on status; the events may still be catching up with it.
      if (entry.record) {
        out.summary.status = entry.record.status;
        if (entry.record.stopReason) out.summary.stopReason = entry.record.stopReason;
      }
      return out;
    },
    fullText: async (runId, index, field) => (await open(runId))?.model.fullText(index, field),
    recorded: async (runId) => (await open(runId))?.model.recorded(),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    problem: () => problem,
    decide: async (runId, decisions: Record<string, Decision>) => {
      // The runs gather the decisions themselves (in their store): what one page decided, another page, another
      // process or a restarted devtools sees, and the run goes on once the last pending call has one.
      const token = await guarded(runs.resumeToken(runId));
      if (token === undefined && (await guarded(runs.get(runId))).status !== 'waiting')
        throw new Error('This run is not waiting.');
      const { undecided } = await guarded(runs.decide(runId, decisions, { token }));
      const entry = followed.get(runId);
      if (entry) {
        Object.assign(entry.model.decisions, decisions);
        // Read again when the page next asks: the gathered decisions are in the stored run.
        delete entry.record;
        if (!undecided.length) entry.model.pending = [];
      }
      notify(runId);
      return { undecided };
    },
    cancel: async (runId) => {
      await guarded(runs.cancel(runId));
      notify(runId);
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await polling;
      await Promise.all([...followed.values()].map(async (entry) => entry.reader?.return?.()));
      followed.clear();
    },
  };
}

/** Fold one stream event into the run's model, at the time its id carries (or now, if it carries none). */
function apply(entry: Followed, event: RunEvent): void {
  entry.lastEventId = event.id;
  const at = eventTime(event.id);
  const model = entry.model;
  // An agent's events carry its path: they go under the call that started it.
  const path = event.agentPath;
  if (event.type === 'text') model.addText(event.text, at, path);
  else if (event.type === 'reasoning') model.addReasoning(event.text, at, path);
  else if (event.type === 'tool_call')
    model.addToolCall(
      { id: event.call.id, name: event.call.function.name, arguments: event.call.function.arguments },
      at,
      path,
    );
  else if (event.type === 'tool_result') {
    // What the model read of it comes with the next record read (`absorb`): the stored history may be older.
    model.endTool(
      event.callId,
      { name: event.name, response: event.response, ...(event.outcome ? { outcome: event.outcome } : {}) },
      at,
      path,
    );
  } else if (event.type === 'status') {
    model.addStatus(event.status, { stopReason: event.stopReason, attempt: event.attempt }, at);
    if (event.status === 'queued' && model.length === 1) model.startedAt = at;
  }
}

/** What the stored record adds to the events: totals, pending calls, the answer, what the model read. */
function absorb(model: RunModel, record: RunRecord, listed: RunListing | undefined): void {
  if (listed?.model) model.model = listed.model;
  if (listed) model.startedAt = listed.createdAt;
  model.turns = record.state.turn;
  model.inputTokens = record.state.usage.inputTokens;
  model.outputTokens = record.state.usage.outputTokens;
  model.pending = record.status === 'waiting' ? pendingViews(record.state) : [];
  // Decisions gathered while the run waits, from any page or process: a rejected call is told apart by them.
  if (record.status === 'waiting' && record.decisions) Object.assign(model.decisions, record.decisions);
  if (record.stopReason) model.stopReason = record.stopReason;
  if (record.text !== undefined) model.text = record.text;
  if (record.error) model.error = `${record.error.name}: ${record.error.message}`;
  const firstReply = record.state.messages.findIndex((m) => m.role === 'assistant');
  model.input = firstReply === -1 ? record.state.messages : record.state.messages.slice(0, firstReply);
  for (const [callId, text] of readModelResponses(record.state.messages)) model.setModelResponse(callId, text);
}

/** The names of the tools a run's history shows called, its agents' included (from their states), each once. */
function toolNames(state: RunState): string[] {
  const names = new Set<string>();
  const visit = (run: RunState) => {
    for (const message of run.messages)
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? [])
          if (call.type === 'function' && names.size < MAX_TOOL_NAMES) names.add(nameText(call.function.name));
    for (const child of Object.values(run.children ?? {})) visit(child);
  };
  visit(state);
  return [...names];
}

function countCalls(record: RunRecord): number {
  return record.state.messages.reduce(
    (n, m) => n + (m.role === 'assistant' && m.tool_calls ? m.tool_calls.length : 0),
    0,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors of a Redis that is down or does not answer, as opposed to an unknown run or a refused decision. */
function isConnectionError(error: unknown): boolean {
  const text = message(error);
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection is closed|did not answer|max retries|Stream isn't writeable|enableOfflineQueue/i.test(
    text,
  );
}

/**
 * When an event was written: a Redis stream id (the default store's) starts with its epoch milliseconds. Another
 * store's ids are opaque (a PostgreSQL row number, say): the time they are read stands in.
 */
function eventTime(id: string): number {
  const stream = /^(\d{12,})-\d+$/.exec(id);
  return stream ? Number(stream[1]) : Date.now();
}
