import type { CancelSubscription, RunStore } from './run-store';

/** Milliseconds after which a waiter reads its run again although nothing was heard (a message lost in a reconnect). */
const RECHECK_MS = 5000;
/** Runs remembered as started here and not yet named: the oldest are forgotten first (their waits read, as any). */
const MAX_FRESH_RUNS = 10_000;

/**
 * One subscription to the runs that wait or end, shared by every `wait` of this process: a waiter is woken when its
 * run is named, instead of reading each of the run's events as they come.
 */
export class SettleWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();
  /**
   * Runs this process created while listening, not named since: they have neither waited nor ended, so a wait on
   * one needs no read before it is told. A message lost in a reconnect costs such a wait the recheck's delay only.
   */
  private readonly fresh = new Set<string>();
  private subscription?: Promise<CancelSubscription>;
  private listening = false;
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
      this.listening = !this.closed;
    } catch (error) {
      // The next wait tries again.
      this.subscription = undefined;
      throw error;
    }
  }

  /**
   * Call before the write that creates `runId` (then {@link SettleWaiters.forget} it unless that write created it):
   * while listening, a settle of the run cannot pass unheard, and the first wait on it skips its read.
   */
  expectNew(runId: string): void {
    if (!this.listening) return;
    this.fresh.add(runId);
    if (this.fresh.size > MAX_FRESH_RUNS) this.fresh.delete(this.fresh.values().next().value!);
  }

  /** The run was not created by the write {@link SettleWaiters.expectNew} came before (it existed, or it failed). */
  forget(runId: string): void {
    this.fresh.delete(runId);
  }

  /** Whether `runId` was created here while listening and has not been named since; asking forgets it. */
  takeFresh(runId: string): boolean {
    return this.fresh.delete(runId);
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
    this.listening = false;
    this.fresh.clear();
    const subscription = await this.subscription?.catch(() => undefined);
    this.subscription = undefined;
    await subscription?.close();
  }

  private wake(runId: string): void {
    this.fresh.delete(runId);
    for (const wake of this.waiters.get(runId) ?? []) wake();
  }
}
