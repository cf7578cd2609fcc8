import { StreamIdleTimeoutError } from '../../errors/stream-idle-timeout.error';

/**
 * Arms the idle timeout between chunks: a wait for progress longer than `ms` aborts `controller` with
 * {@link StreamIdleTimeoutError}, then calls `onIdle` (a reader whose request does not follow `controller` cancels
 * its body there). `refresh` the timer on every chunk that brought progress (never on empty chunks or keep-alives,
 * or they would hold a useless stream open forever), `clearTimeout` it at the end. No timer for an absent or 0 `ms`.
 *
 * @internal
 */
export function startIdleTimer(
  controller: AbortController,
  ms: number | undefined,
  onIdle?: () => void,
): NodeJS.Timeout | undefined {
  if (!ms || ms <= 0) return undefined;
  return setTimeout(() => {
    controller.abort(new StreamIdleTimeoutError(ms));
    onIdle?.();
  }, ms);
}
