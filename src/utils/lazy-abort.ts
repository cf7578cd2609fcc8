/**
 * An abort signal made only when something reads it. Creating an `AbortSignal` costs microseconds of CPU on
 * Node 20, and most tools never look at theirs; a signal read after `abort` comes back already aborted, with
 * the same reason.
 *
 * @internal
 */
export class LazyAbort {
  private controller?: AbortController;
  private aborted?: { reason: unknown };

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.aborted.reason);
    }
    return this.controller.signal;
  }

  /** Abort once; later calls change nothing, as with `AbortController.abort`. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = { reason };
    this.controller?.abort(reason);
  }
}
