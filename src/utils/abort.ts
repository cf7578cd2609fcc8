/**
 * A controller that aborts when any of `parents` aborts, and a `dispose` that detaches it again.
 *
 * Each request and each tool gets its own child so listeners never pile up on a long-lived run signal
 * (the openai SDK adds one per request and never removes it).
 */
export function linkAbort(...parents: (AbortSignal | undefined)[]): {
  controller: AbortController;
  dispose: () => void;
} {
  const controller = new AbortController();
  const attached: AbortSignal[] = [];
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    parent.addEventListener('abort', onAbort, { once: true });
    attached.push(parent);
  }
  return {
    controller,
    dispose: () => {
      for (const parent of attached) parent.removeEventListener('abort', onAbort);
    },
  };
}
