import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A `fetch` for the openai client that adds `retry-after-ms` to every response, the header OpenAI itself sends
 * with a 429. The SDK honours it instead of its default 0.5 s → 8 s backoff, so retry tests stay fast while the
 * retries themselves are real requests the scripted server records.
 */
export function fetchWithRetryAfterMs(ms: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(response.headers);
    headers.set('retry-after-ms', String(ms));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** A localhost port nothing listens on: bound once by the OS, then released. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

/**
 * A `fetch` for the openai client that lets a test rewrite a non-streamed completion before the SDK reads it:
 * for shapes the scripted server will not produce because no well-behaved provider does (`arguments: null`,
 * `tool_calls: null`, missing ids). The request itself still goes to, and is recorded by, the scripted server.
 */
export function fetchRewritingCompletion(rewrite: (completion: any) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok || !response.headers.get('content-type')?.includes('application/json')) return response;
    const completion = await response.json();
    rewrite(completion);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(completion), { status: response.status, headers });
  };
}
