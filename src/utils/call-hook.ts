/** What `onHookError` receives: which hook failed, and what it threw or rejected with. */
export type HookErrorEvent = { hook: string; error: unknown };

/** Reports a hook that threw or rejected; itself guarded, so it cannot break a run either. */
export type HookErrorHandler = (e: HookErrorEvent) => void;

/**
 * Call an observer hook so that it cannot break what it observes: a synchronous throw, or the rejection of
 * a promise it returns, goes to `onHookError` (when given) and nowhere else. Callers check that the hook is
 * set before building its event, so an absent hook costs nothing.
 *
 * @internal
 */
export function callHook<E>(
  hook: ((e: E) => unknown) | undefined,
  name: string,
  event: E,
  onHookError: HookErrorHandler | undefined,
): void {
  if (!hook) return;
  try {
    const returned = hook(event);
    if (isThenable(returned)) returned.then(undefined, (error: unknown) => reportHookError(onHookError, name, error));
  } catch (error) {
    reportHookError(onHookError, name, error);
  }
}

/**
 * Hand a hook's failure to `onHookError`, itself guarded.
 *
 * @internal
 */
export function reportHookError(onHookError: HookErrorHandler | undefined, hook: string, error: unknown): void {
  if (!onHookError) return;
  try {
    const returned: unknown = onHookError({ hook, error });
    if (isThenable(returned)) returned.then(undefined, () => undefined);
  } catch {
    // The error reporter failed too: there is nobody left to tell, and the run must go on.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
