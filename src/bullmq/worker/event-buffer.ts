import { asError } from './error-summary';
import type { RunHold } from './run-hold';
import type { RunStore } from '../store/run-store';
import type { RunEventData } from '../types';

/** Characters of text one coalesced event may reach before the next delta starts another. */
const MAX_COALESCED_CHARS = 64 * 1024;

/**
 * A run's events on their way to its stream. They go out with the next journal write or checkpoint, or after
 * `flushMs` on their own, so a fast turn costs no round-trip of its own and a slow stream still shows up live.
 */
export class EventBuffer {
  private pending: RunEventData[] = [];
  private timer?: NodeJS.Timeout;
  private readonly writes = new Set<Promise<void>>();
  private failure?: unknown;

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    private readonly flushMs: number,
    /** The job's hold on the run: no event is written before the claim and checkpoints sent so far said yes. */
    private readonly hold: RunHold,
  ) {}

  /**
   * Buffer an event. Text and reasoning deltas are joined to the buffered event of the same type (up to 64 KiB of
   * text each): one stream entry per flush, not one per streamed token.
   */
  push(event: RunEventData): void {
    const last = this.pending[this.pending.length - 1];
    if (
      (event.type === 'text' || event.type === 'reasoning') &&
      last?.type === event.type &&
      last.text.length < MAX_COALESCED_CHARS
    ) {
      this.pending[this.pending.length - 1] = { type: event.type, text: last.text + event.text };
      this.timer ??= setTimeout(() => this.flush(), this.flushMs);
      return;
    }
    // A tool that reports progress in a tight loop adds one stream entry per flush, not one per report.
    if (event.type === 'tool_progress' && last?.type === 'tool_progress' && last.callId === event.callId) {
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

  /** Wait for the timed writes; the first one that failed is thrown (a lost event is a failed turn). */
  async settle(): Promise<void> {
    await Promise.all(this.writes);
    if (this.failure !== undefined) throw asError(this.failure);
  }

  /** Stop the timer without writing (the run is over elsewhere). */
  discard(): void {
    this.take();
  }

  private flush(): void {
    // Not chained to the writes before it: each waits for the same hold, and goes out in the order it was made.
    const events = this.take();
    const append = () => this.store.appendEvents(this.runId, events);
    const sent = this.hold.confirmed().then((held) => (held ? append() : undefined));
    const write = sent.catch((error: unknown) => {
      this.failure ??= error;
    });
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
