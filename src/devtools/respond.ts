import type { ServerResponse } from 'node:http';

/** Headers of every response: nothing loads from elsewhere, nothing is framed, sniffed or cached. */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Write a whole response with the page's security headers. */
export function send(res: ServerResponse, status: number, type: string, body: string, extra = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  res.end(body);
}
