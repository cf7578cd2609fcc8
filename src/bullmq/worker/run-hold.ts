/**
 * Whether a job still holds its run, as the store last answered. The job does not wait for the writes that say so
 * (each turn's checkpoint): they go out alongside the next model request, and what must not
 * happen on a run the job lost waits for {@link RunHold.confirmed} instead: a tool call, a journal or event write,
 * the next checkpoint, the job's end. No write of the job is sent before the store answered the one before it, so
 * the hold needs nothing of the store's connections (their order, their count).
 */
export class RunHold {
  private latest: Promise<boolean>;
  private lost = false;

  /**
   * @param onLost called once, when a write is refused (the run moved on: `undefined`) or fails (its error), so the
   * job stops what it has in flight.
   */
  constructor(private readonly onLost: (error?: unknown) => void) {
    this.latest = Promise.resolve(true);
  }

  /** A write whose answer says whether the job still holds the run; the hold is confirmed once it and those before are. */
  extend(write: Promise<boolean>): void {
    const before = this.latest;
    this.latest = before.then((held) => held && write);
    write.then(
      (held) => {
        if (!held) this.lose();
      },
      (error: unknown) => this.lose(error),
    );
    // Observed by whoever waits for it; this keeps a failure from going unhandled meanwhile.
    this.latest.catch(() => undefined);
  }

  /** True once every write so far was answered yes; false when one was refused; rejects when one failed. */
  confirmed(): Promise<boolean> {
    return this.latest;
  }

  private lose(error?: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.onLost(error);
  }
}

/** Ends the loop when the run's hold was lost: its claim or a checkpoint was refused (a cancel or another worker has it). */
export class RunMovedOnError extends Error {}
