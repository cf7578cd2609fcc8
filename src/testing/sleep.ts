/**
 * Wait `ms`, or less if `signal` aborts; resolves `true` when the full time passed.
 *
 * Resolving instead of rejecting keeps the stall paths free of try/catch, and the timer is cleared on abort
 * so no handle outlives `close()` (tests run with `--detectOpenHandles`).
 */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
