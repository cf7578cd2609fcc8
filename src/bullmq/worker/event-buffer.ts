import { asError } from './error-summary';
import type { RunHold } from './run-hold';
import type { RunStore } from '../store/run-store';
import type { RunEventData } from '../types';

/** Characters of text one coalesced event may reach before the next delta starts another. */
const MAX_COALESCED_CHARS = 64 * 1024;

/**
 * A run's events on their way to its stream. They go out with the next journal write or checkpoint, or after
 * `flushMs` on their own, so a fast turn costs no round-trip of its own and a slow stream still shows up live.
 *
 * Every write that carries events goes through {@link EventBuffer.send}: it takes the buffered events and is sent
 * once the store has answered the event write before it. The stream so gets the events in the order they were made
 * by construction, whatever a write's own round trips (a script sent again in full after `NOSCRIPT`, a write waiting
 * for the hold) and whichever connection it takes. It is also what counts them: each write is given the count of the
 * run's job writes it is to follow (see `StoredRun.writes`), so a store that lost writes it answered refuses it.
 */
export class EventBuffer {
  private pending: RunEventData[] = [];
  private timer?: NodeJS.Timeout;
  /** The last event write: each waits for it; a failed one fails every write after it (a gap is never written). */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    private readonly flushMs: number,
    /** The job's hold on the run: no event is written before the claim and checkpoints sent so far said yes. */
    private readonly hold: RunHold,
    /** The run's job writes as the claim left them; `undefined` for a store that counts none. */
    private writes?: number,
  ) {}

  /** The run's job writes once those sent so far are made: where the run's next job goes on counting. */
  get written(): number | undefined {
    return this.writes;
  }

  /**
   * Buffer an event. Text and reasoning deltas are joined to the buffered event of the same type (up to 64 KiB of
   * text each): one stream entry per flush, not one per streamed token.
   */
  push(event: RunEventData): void {
    const last = this.pending[this.pending.length - 1];
    if (
      (event.type === 'text' || event.type === 'reasoning') &&
      last?.type === event.type &&
      last.text.length < MAX_COALESCED_CHARS &&
      samePath(last, event)
    ) {
      this.pending[this.pending.length - 1] = { ...last, text: last.text + event.text };
      this.timer ??= setTimeout(() => this.flush(), this.flushMs);
      return;
    }
    // A tool that reports progress in a tight loop adds one stream entry per flush, not one per report.
    if (
      event.type === 'tool_progress' &&
      last?.type === 'tool_progress' &&
      last.callId === event.callId &&
      samePath(last, event)
    ) {
      this.pending[this.pending.length - 1] = event;
      return;
    }
    this.pending.push(event);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** The buffered events, for a write that carries them. */
  take(): RunEventData[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.pending;
    this.pending = [];
    return events;
  }

  /**
   * Send `write` with the buffered events, after the event writes before it were answered. Rejects with the first
   * failed event write, sent or not: a lost event is a failed turn.
   */
  send<T>(write: (events: RunEventData[], writes: number | undefined) => Promise<T>): Promise<T> {
    const events = this.take();
    const sent = this.sending.then(() => {
      const writes = this.writes;
      if (writes !== undefined) this.writes = writes + 1;
      return write(events, writes);
    });
    this.sending = sent;
    // Observed by whoever waits for it; this keeps a timed write's failure from going unhandled meanwhile.
    sent.catch(() => undefined);
    return sent;
  }

  /** Wait for the event writes sent so far; the first one that failed is thrown (a lost event is a failed turn). */
  async settle(): Promise<void> {
    try {
      await this.sending;
    } catch (error) {
      throw asError(error);
    }
  }

  /** Stop the timer without writing (the run is over elsewhere). */
  discard(): void {
    this.take();
  }

  private flush(): void {
    // The hold as it is now: a checkpoint sent later is sent after this write, and must not be waited for by it.
    const held = this.hold.confirmed();
    void this.send(async (events, writes) => {
      // A run the job lost takes no more writes: its count no longer matters.
      if (await held) await this.store.appendEvents(this.runId, events, writes);
    });
  }
}

/** Whether two events come from the same run of the tree (an agent's text is never joined to its parent's). */
function samePath(a: RunEventData, b: RunEventData): boolean {
  return (a.agentPath ?? []).join('/') === (b.agentPath ?? []).join('/');
}
