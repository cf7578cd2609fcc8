import type { ChatCompletionMessageToolCall, ToolExecuteResult, ToolJournal } from '../index';
import type { RunObserver } from '../internal';
import type { EventBuffer } from './event-buffer';
import type { ModelTape } from './model-tape';
import type { RunStore } from './run-store';

/**
 * One job's bridge between the loop and Redis: an observer of the run that turns what it streams and answers into
 * run events, and the run's tool journal. As an observer it is isolated from the setup's own hooks: one that
 * throws changes nothing of what reaches Redis.
 * What a replayed (journaled) response or call produced was published by the attempt that first ran it, so it
 * is not published again.
 */
export class TurnRecorder {
  private calls: ChatCompletionMessageToolCall[] = [];
  private readonly replayedCalls = new Set<string>();
  /** Set when a journal write failed: the job must fail rather than run on without durability. */
  failure?: unknown;

  constructor(
    private readonly runId: string,
    private readonly store: RunStore,
    private readonly saved: ReadonlyMap<string, string>,
    private readonly tape: ModelTape,
    private readonly events: EventBuffer,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** The observer to run the loop with. */
  readonly observer: RunObserver = {
    name: 'queue',
    text: (e) => {
      if (!this.tape.replaying) this.events.push({ type: 'text', text: e.text });
    },
    reasoning: (e) => {
      if (!this.tape.replaying) this.events.push({ type: 'reasoning', text: e.text });
    },
    toolCall: (e) => {
      // Arguments are still streaming: the call is published once they are whole.
      this.calls.push(e.call);
    },
    toolEnd: (e) => {
      this.publishCalls();
      if (this.replayedCalls.has(e.call.id)) return;
      this.events.push({ type: 'tool_result', callId: e.call.id, name: e.call.function.name, response: e.response });
    },
  };

  /**
   * The tool journal: reads come from what the job loaded with its claim (no round-trip); a write carries the
   * model responses recorded so far and the buffered events, in one round-trip.
   */
  readonly journal: ToolJournal = {
    get: async (key) => {
      this.publishCalls();
      const saved = this.saved.get(`call:${key}`);
      if (saved === undefined) return undefined;
      this.replayedCalls.add(key.slice(this.runId.length + 1));
      return JSON.parse(saved) as ToolExecuteResult;
    },
    set: async (key, result) => {
      try {
        await this.store.journal(this.runId, key, result, this.tape.takeUnsaved(), this.events.take());
      } catch (error) {
        this.failure ??= error;
        this.onFailure(error);
      }
    },
  };

  /**
   * Publish the calls the model made this turn, once their arguments are whole: when the first of them runs or is
   * answered, or at the checkpoint (calls waiting for approval neither run nor are answered before it).
   */
  publishCalls(): void {
    if (!this.calls.length) return;
    if (!this.tape.replaying) for (const call of this.calls) this.events.push({ type: 'tool_call', call });
    this.calls = [];
  }
}
