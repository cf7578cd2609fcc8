import type { HeldRuns } from './worker/run-processor';
import type { CancelSubscription, RunStore, StoredRun } from './store/run-store';

/** Milliseconds after which a waiter reads its run again although nothing was heard (a message lost in a reconnect). */
const RECHECK_MS = 5000;
/** Runs remembered as started here and not yet named: the oldest are forgotten first (their waits read, as any). */
const MAX_FRESH_RUNS = 10_000;
/**
 * Milliseconds a run named while a job here holds it waits for that job to let it go before its waiters read: the
 * job lets it go at once when it settled the run, later when something else did (a cancel, while a tool runs on).
 */
const HELD_GRACE_MS = 50;

/** What woke a waiter: its run was named, and, when a job of this process settled it, the run as stored. */
export type Heard = { run?: StoredRun };

/**
 * One subscription to the runs that wait or end, shared by every `wait` of this process: a waiter is woken when its
 * run is named, instead of reading each of the run's events as they come. A run a job of this process settles is
 * handed to its waiters as stored, with no read: the job tells them as it lets the run go ({@link HeldRuns}), and a
 * message naming the run while a job here holds it waits for that.
 */
export class SettleWaiters implements HeldRuns {
  private readonly waiters = new Map<string, Set<(heard: Heard) => void>>();
  /** Runs jobs of this process hold, and how many jobs hold each. */
  private readonly held = new Map<string, number>();
  /** Held runs named since they were taken: their waiters are woken when the job lets go (or after the grace). */
  private readonly namedWhileHeld = new Map<string, NodeJS.Timeout>();
  /**
   * Runs this process created while listening, not named since: they have neither waited nor ended, so a wait on
   * one needs no read before it is told. A message lost in a reconnect costs such a wait the recheck's delay only.
   */
  private readonly fresh = new Set<string>();
  private subscription?: Promise<CancelSubscription>;
  private listening = false;
  private closed = false;

  // Only `onSettled` is used: queued tool calls hand it a subscription of their own.
  constructor(private readonly store: Required<Pick<RunStore, 'onSettled'>>) {}

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

  /** A job of this process took `runId`. */
  hold(runId: string): void {
    this.held.set(runId, (this.held.get(runId) ?? 0) + 1);
  }

  /** A job of this process let `runId` go: `settled` is the run as it stored it, when it paused or ended it. */
  release(runId: string, settled?: StoredRun): void {
    const holds = (this.held.get(runId) ?? 1) - 1;
    if (holds > 0) this.held.set(runId, holds);
    else this.held.delete(runId);
    if (settled) this.wakeWaiters(runId, { run: settled });
    // A message kept back while the run was held: with no job here holding it now, its waiters read it.
    else if (!holds && this.namedWhileHeld.has(runId)) this.wakeWaiters(runId, {});
    else return;
    clearTimeout(this.namedWhileHeld.get(runId));
    this.namedWhileHeld.delete(runId);
  }

  /**
   * A promise of the next time `runId` is named, or of `withinMs` (capped at a few seconds) passing (false);
   * `cancel` drops it.
   */
  next(runId: string): { heard: (withinMs: number) => Promise<Heard | false>; cancel: () => void } {
    let wake!: (heard: Heard) => void;
    const named = new Promise<Heard>((resolve) => (wake = resolve));
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
    for (const timer of this.namedWhileHeld.values()) clearTimeout(timer);
    this.namedWhileHeld.clear();
    const subscription = await this.subscription?.catch(() => undefined);
    this.subscription = undefined;
    await subscription?.close();
  }

  /** The run was named: its waiters read it, unless a job here holds it and will hand it to them. */
  private wake(runId: string): void {
    this.fresh.delete(runId);
    if (!this.held.has(runId)) {
      this.wakeWaiters(runId, {});
      return;
    }
    if (this.namedWhileHeld.has(runId)) return;
    const grace = setTimeout(() => {
      this.namedWhileHeld.delete(runId);
      this.wakeWaiters(runId, {});
    }, HELD_GRACE_MS);
    this.namedWhileHeld.set(runId, grace);
  }

  private wakeWaiters(runId: string, heard: Heard): void {
    for (const wake of this.waiters.get(runId) ?? []) wake(heard);
  }
}
