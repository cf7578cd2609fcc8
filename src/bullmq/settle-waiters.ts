import type { CancelSubscription, RunStore } from './run-store';

/** Milliseconds after which a waiter reads its run again although nothing was heard (a message lost in a reconnect). */
const RECHECK_MS = 5000;

/**
 * One subscription to the runs that wait or end, shared by every `wait` of this process: a waiter is woken when its
 * run is named, instead of reading each of the run's events as they come.
 */
export class SettleWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();
  private subscription?: Promise<CancelSubscription>;
  private closed = false;

  constructor(private readonly store: RunStore & Required<Pick<RunStore, 'onSettled'>>) {}

  /**
   * Resolves once listening. Call it (and {@link SettleWaiters.next}) before reading the run, so that a settle
   * between the read and the wait is heard.
   */
  async ready(): Promise<void> {
    // A wait after `close` must not open a connection nobody closes.
    if (this.closed) throw new Error('The runs are closed');
    this.subscription ??= this.store.onSettled((runId) => this.wake(runId));
    try {
      await this.subscription;
    } catch (error) {
      // The next wait tries again.
      this.subscription = undefined;
      throw error;
    }
  }

  /**
   * A promise of the next time `runId` is named (true), or of `withinMs` (capped at a few seconds) passing (false);
   * `cancel` drops it.
   */
  next(runId: string): { heard: (withinMs: number) => Promise<boolean>; cancel: () => void } {
    let wake!: () => void;
    const named = new Promise<true>((resolve) => (wake = () => resolve(true)));
    let set = this.waiters.get(runId);
    if (!set) this.waiters.set(runId, (set = new Set()));
    set.add(wake);
    let timer: NodeJS.Timeout | undefined;
    return {
      heard: (withinMs) =>
        Promise.race([
          named,
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.min(withinMs, RECHECK_MS)))),
        ]),
      cancel: () => {
        clearTimeout(timer);
        set.delete(wake);
        if (!set.size && this.waiters.get(runId) === set) this.waiters.delete(runId);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const subscription = await this.subscription?.catch(() => undefined);
    this.subscription = undefined;
    await subscription?.close();
  }

  private wake(runId: string): void {
    for (const wake of this.waiters.get(runId) ?? []) wake();
  }
}
