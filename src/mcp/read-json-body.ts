import type { IncomingMessage } from 'node:http';

/** A request body read whole, or why it was not. */
export type BodyResult =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly message: string };

/**
 * Read and parse a JSON request body, refusing one over `maxBytes` (413) before parsing anything: at once when
 * `Content-Length` says so, otherwise as soon as more has arrived. What is past the limit is never read (the
 * request is paused, not consumed: answer with `connection: close`).
 *
 * @internal
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, status: 413, message: `Request body over ${maxBytes} bytes` };
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBytes) return void chunks.push(chunk);
      stop();
      req.pause();
      resolve(tooLarge);
    };
    const onEnd = () => {
      stop();
      try {
        resolve({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ ok: false, status: 400, message: 'Parse error: Invalid JSON' });
      }
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
