import type { ChatCompletionMessageFunctionToolCall as ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import type { ToolExecuteResult, ToolJournal, ToolOutcome } from '../../index';
import type { RunObserver } from '../../internal';
import type { EventBuffer } from './event-buffer';
import { asError } from './error-summary';
import type { ModelTape } from './model-tape';
import type { RunStore } from '../store/run-store';

/** The longest progress message a queue event carries. */
const MAX_PROGRESS_MESSAGE_CHARS = 1_000;

/**
 * One job's bridge between the loop and the store: an observer of the run that turns what it streams and answers
 * into run events, and the run's tool journal. As an observer it is isolated from the setup's own hooks: one that
 * throws changes nothing of what reaches the store.
 * What a replayed (journaled) response or call produced was published by the attempt that first ran it, so it
 * is not published again.
 *
 * A call runs only once the response that made it is durable (written with the turn's first call that runs), and
 * a call's result is durable before anything else of the run happens: written at once while another call of the
 * turn still runs, and before the next call of the turn starts; the last one to finish rides the turn's checkpoint
 * instead (which holds it in the history), so a turn costs one write, not one per call. Should anything make the
 * loop wait between that call and the checkpoint (a summarizing request, say), the result is written on its own
 * first.
 */
export class TurnRecorder {
  private calls: { call: ChatCompletionMessageToolCall; path: AgentPath }[] = [];
  /**
   * Names of this turn's calls, by their path key (`[...agentPath, id].join('/')`, as in journal keys): a call's
   * `tool_result` event is made where its result is journaled.
   */
  private readonly names = new Map<string, string>();
  /** Path keys of calls whose `tool_result` is published already: replayed, or published as it was journaled. */
  private readonly replayedCalls = new Set<string>();
  /** Calls of this turn that started (the journal had nothing for them) and have not finished. */
  private readonly running = new Set<string>();
  /**
   * Finished calls not written yet: the checkpoint will hold them, unless a write is needed sooner. A `Map`: each
   * key is new (run and call ids), and an object given a new key each turn grows V8's hidden classes for good.
   */
  private readonly deferred = new Map<string, ToolExecuteResult>();
  private deferredTimer?: NodeJS.Immediate;
  private writes: Promise<void> = Promise.resolve();
  /** Whether a call was answered since the last checkpoint: the loop checkpoints a turn only after its calls. */
  answered = false;
  /** Set when a journal write failed: the job must fail rather than run on without durability. */
  failure?: unknown;

  constructor(
    private readonly runId: string,
    private readonly store: RunStore,
    private saved: ReadonlyMap<string, string>,
    private readonly tape: ModelTape,
    private readonly events: EventBuffer,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** The observer to run the loop with. */
  readonly observer: RunObserver = {
    name: 'queue',
    text: (e) => {
      if (!this.tape.replaying) this.events.push({ type: 'text', text: e.text, ...pathOf(e) });
    },
    reasoning: (e) => {
      if (!this.tape.replaying) this.events.push({ type: 'reasoning', text: e.text, ...pathOf(e) });
    },
    toolCall: (e) => {
      // Arguments are still streaming: the call is published once they are whole.
      const path = pathOf(e);
      this.calls.push({ call: e.call, path });
      this.names.set(keyOf(path, e.call.id), e.call.type === 'function' ? e.call.function.name : e.call.type);
    },
    toolProgress: (e) => {
      const path = pathOf(e);
      if (this.tape.replaying || this.replayedCalls.has(keyOf(path, e.call.id))) return;
      this.events.push({
        ...path,
        type: 'tool_progress',
        callId: e.call.id,
        name: e.call.function.name,
        progress: e.progress,
        ...(e.total !== undefined && { total: e.total }),
        // The message may carry text from outside the app (what a tool relays): capped like any such text.
        ...(e.message !== undefined && { message: e.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS) }),
      });
    },
    toolEnd: (e) => {
      this.answered = true;
      this.publishCalls();
      const path = pathOf(e);
      if (this.replayedCalls.has(keyOf(path, e.call.id))) return;
      this.events.push({
        ...path,
        type: 'tool_result',
        callId: e.call.id,
        name: e.call.function.name,
        response: e.response,
        outcome: e.outcome,
      });
    },
  };

  /** The tool journal: reads come from what the job loaded with its claim (no round trip). */
  readonly journal: ToolJournal = {
    get: async (key) => {
      this.publishCalls();
      // A call that finished earlier in this turn is written before this one can have a side effect.
      if (this.deferred.size) await this.flush();
      const saved = this.saved.get(`call:${key}`);
      if (saved === undefined) {
        // The response that made the call is written before its side effect: a later attempt replays it, so the
        // call keeps its id (and its idempotency key) instead of being asked of the model anew under another.
        if (this.tape.hasUnsaved()) await this.flush();
        await this.writes;
        if (this.failure !== undefined) throw asError(this.failure);
        this.running.add(key);
        return undefined;
      }
      this.replayedCalls.add(key.slice(this.runId.length + 1));
      return JSON.parse(saved) as ToolExecuteResult;
    },
    set: async (key, result) => {
      this.running.delete(key);
      // The call's event goes with its result: an event written ahead of it is provisional, and the journaled call
      // will not run again to publish it anew.
      const pathKey = key.slice(this.runId.length + 1);
      const { outcome } = result as { outcome?: ToolOutcome };
      const agentPath = pathKey.split('/');
      const callId = agentPath.pop()!;
      this.events.push({
        ...(agentPath.length && { agentPath }),
        type: 'tool_result',
        callId,
        name: this.names.get(pathKey) ?? '',
        response: result.response,
        outcome: outcome ?? 'ok',
      });
      this.replayedCalls.add(pathKey);
      // Serialised only when written: most results are not, the checkpoint holds them in the history.
      this.deferred.set(`call:${key}`, result);
      if (this.running.size) {
        await this.flush();
        return;
      }
      this.deferredTimer ??= setImmediate(() => void this.flush());
    },
  };

  /**
   * Ready the turn's checkpoint, which carries the buffered events (sent through {@link EventBuffer.send}): the results
   * held back are in its history, so they are dropped; the journal writes already sent are awaited (the first failure
   * is thrown), and the turn's calls published.
   */
  async beforeCheckpoint(): Promise<void> {
    this.clearDeferred();
    await this.writes;
    if (this.failure !== undefined) throw asError(this.failure);
    this.publishCalls();
  }

  /**
   * The answered calls go on into the next turn without a checkpoint of their own: the results held back are
   * written now (with the buffered events), so that a repeat finds them in the journal.
   */
  async carryOver(): Promise<void> {
    if (this.deferred.size) await this.flush();
    await this.writes;
    if (this.failure !== undefined) throw asError(this.failure);
    this.answered = false;
  }

  /** The next turn starts: what the claim loaded and the calls of the turn before are done with. */
  nextTurn(): void {
    this.saved = new Map();
    this.replayedCalls.clear();
    // An agent's turn checkpoints as the run's while the call that started the agent still runs: its name stays.
    for (const key of this.names.keys()) if (!this.running.has(`${this.runId}:${key}`)) this.names.delete(key);
    this.running.clear();
    this.clearDeferred();
    this.answered = false;
  }

  /**
   * Publish the calls the model made this turn, once their arguments are whole: when the first of them runs or is
   * answered, or at the checkpoint (calls waiting for approval neither run nor are answered before it).
   */
  publishCalls(): void {
    if (!this.calls.length) return;
    if (!this.tape.replaying)
      for (const { call, path } of this.calls) this.events.push({ ...path, type: 'tool_call', call });
    this.calls = [];
  }

  /** Write the held-back results, with the model responses recorded so far and the buffered events: one round trip. */
  private flush(): Promise<void> {
    const entries = this.tape.takeUnsaved();
    for (const [field, result] of this.deferred) entries[field] = JSON.stringify(result);
    this.clearDeferred();
    const write = this.events
      .send((events, writes) => this.store.journal(this.runId, entries, events, writes))
      .catch((error: unknown) => {
        this.failure ??= error;
        this.onFailure(error);
      });
    this.writes = this.writes.then(() => write);
    return write;
  }

  private clearDeferred(): void {
    if (this.deferredTimer) clearImmediate(this.deferredTimer);
    this.deferredTimer = undefined;
    this.deferred.clear();
  }
}

/** An event's `agentPath`, spread into the queue event it makes: nothing for the run's own events. */
type AgentPath = { agentPath?: string[] };

/** The run's own events: no path (one object, not one per streamed delta). */
const ROOT: AgentPath = Object.freeze({});

/** The agent path an event of the run carries: those of an agent's run (`defineAgent`) are forwarded with one. */
function pathOf(event: object): AgentPath {
  const { agentPath } = event as AgentPath;
  return agentPath?.length ? { agentPath: [...agentPath] } : ROOT;
}

/** A call's key by its path, as in journal keys and decision keys. */
function keyOf(path: AgentPath, callId: string): string {
  return path.agentPath ? [...path.agentPath, callId].join('/') : callId;
}
