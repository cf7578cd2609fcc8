import { RunCancelledError } from '../errors';
import type { CancelSubscription, RunStore } from '../store/run-store';

/**
 * The runs this worker is advancing, and a subscription that aborts one when any process cancels it.
 * A cancel that arrives between two of a run's jobs is remembered, so the next job does not trust a cache.
 */
export class CancelBus {
  private readonly active = new Map<string, Set<AbortController>>();
  private readonly cancelled = new Set<string>();
  private subscription?: Promise<CancelSubscription>;

  constructor(private readonly store: RunStore) {}

  async start(): Promise<void> {
    this.subscription ??= this.store.onCancel((runId) => this.abort(runId));
    await this.subscription;
  }

  /** An AbortController for one job of `runId`, aborted by a cancel; call the returned function when done. */
  register(runId: string): { controller: AbortController; release: () => void } {
    const controller = new AbortController();
    let set = this.active.get(runId);
    if (!set) this.active.set(runId, (set = new Set()));
    set.add(controller);
    const release = () => {
      set.delete(controller);
      if (!set.size) this.active.delete(runId);
    };
    return { controller, release };
  }

  /** Whether a cancel for `runId` reached this process (and forget it). */
  takeCancelled(runId: string): boolean {
    return this.cancelled.delete(runId);
  }

  async close(): Promise<void> {
    const subscription = await this.subscription?.catch(() => undefined);
    await subscription?.close();
  }

  private abort(runId: string): void {
    this.cancelled.add(runId);
    // Bounded: a run cancelled while no job of it runs here is forgotten after a while.
    if (this.cancelled.size > 10_000) this.cancelled.clear();
    for (const controller of this.active.get(runId) ?? []) controller.abort(new RunCancelledError());
  }
}
