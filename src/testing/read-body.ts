import type { IncomingMessage } from 'node:http';
import { RequestAbortedError, RequestTooLargeError } from './errors';

/**
 * Collect a request body as UTF-8; rejects if the connection closes first, so no handler waits forever, and
 * with {@link RequestTooLargeError} as soon as it passes `maxBytes` (what arrives after that is discarded, never
 * buffered).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        reject(new RequestTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new RequestAbortedError());
    });
  });
}

/** Parse a body that must be a JSON object; `undefined` for anything else. */
export function parseJsonObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
