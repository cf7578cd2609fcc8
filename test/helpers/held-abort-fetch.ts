/**
 * A `fetch` for a client under test that passes the SDK's abort on only once `ready` has settled. The SDK starts its timeout timer before it sends a request: on a
 * loaded machine the timer can fire before the server has the request or before its headers are back, and a test
 * that means to time out a stall would time out something else. After `ready`, aborts pass as they come (one that
 * came before is passed at once).
 */
export function fetchWithAbortHeldUntil(ready: (response: Promise<Response>) => Promise<unknown>): typeof fetch {
  return async (url, init) => {
    const controller = new AbortController();
    const response = fetch(url, { ...init, signal: controller.signal });
    await ready(response).catch(() => undefined);
    const signal = init?.signal;
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    return response;
  };
}

/** Resolves once `server` has received `count` requests, or once `response` has settled (whichever is first). */
export async function arrived(
  server: { requests: readonly unknown[] },
  count: number,
  response: Promise<Response>,
): Promise<void> {
  let settled = false;
  response.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (server.requests.length < count && !settled) await new Promise((resolve) => setImmediate(resolve));
}
