import { request } from 'node:http';

/** A raw HTTP request to the devtools server, with headers of our choosing (fetch would not let us set Host). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `path` on the devtools server at `url`, with its token. */
export function apiUrl(url: string, path: string): string {
  const base = new URL(url);
  const target = new URL(path, base);
  target.searchParams.set('token', base.searchParams.get('token') ?? '');
  return target.toString();
}

/** Poll `check` until it returns a value, or fail after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
