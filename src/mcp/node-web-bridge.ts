import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * A web `Request` for a Node request whose body was already read and parsed: the SDK's HTTP transports speak
 * the fetch API. Its signal aborts when the client goes away before the answer is sent.
 *
 * @internal
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  const hasBody = req.method === 'POST' && body !== undefined;
  if (hasBody) headers.delete('content-length');
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody && { body: JSON.stringify(body) }),
  });
}

/**
 * Send a web `Response` through a Node response, streaming its body (an SSE stream stays open as long as the
 * SDK keeps it open) and cancelling it when the client goes away.
 *
 * @internal
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  // An SSE stream's first bytes must reach the client at once, not when a buffer fills.
  res.flushHeaders();
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  res.once('close', () => body.destroy());
  await new Promise<void>((resolve) => {
    body.once('error', () => resolve());
    body.once('end', () => resolve());
    body.pipe(res);
  });
}
