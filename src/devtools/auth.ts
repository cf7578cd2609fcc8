import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Names that reach this machine only: a page served under any other name may be a DNS-rebinding attack. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The shortest token `startDevtools` takes: a guessable one would let anyone on the machine steer the runs. */
export const MIN_TOKEN_CHARS = 32;

/** A fresh random token for the page's URL. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}

/** `token` when it is long enough to guard the page; a clear error otherwise (an empty one never turns auth off). */
export function checkToken(token: string): string {
  if (typeof token !== 'string' || token.length < MIN_TOKEN_CHARS)
    throw new TypeError(
      `startDevtools: token must be at least ${MIN_TOKEN_CHARS} characters (got ${typeof token === 'string' ? token.length : typeof token}); leave it out for a random one`,
    );
  return token;
}

/**
 * The name of the cookie that carries the token once the page has loaded. Cookies do not tell ports apart, so the
 * port is in the name: two pages on one machine keep their own.
 */
export function cookieName(port: number): string {
  return `agentcall-devtools-${port}`;
}

/**
 * The token a request carries: the `token` query parameter or the `x-devtools-token` header (the link the CLI
 * prints, scripts), else the page's cookie when the browser says the request comes from the page itself
 * (`Sec-Fetch-Site`), so another site on this machine cannot ride on it.
 */
export function givenToken(req: IncomingMessage, url: URL, cookie: string): string | undefined {
  const explicit = url.searchParams.get('token') ?? firstHeader(req, 'x-devtools-token');
  if (explicit !== undefined && explicit !== null) return explicit;
  const site = firstHeader(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return undefined;
  for (const part of (firstHeader(req, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === cookie) return decodeCookie(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The `Set-Cookie` value that keeps `token` for the page: never readable by script, never sent by another site. */
export function tokenCookie(cookie: string, token: string): string {
  return `${cookie}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}

function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `given` is `token`, in constant time. */
export function tokenMatches(token: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host name of a `Host` header or an origin, without its port; `undefined` when it has none. */
function hostName(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Whether the request's `Host` (and its `Origin`, when it sends one) names this machine: loopback names only, or
 * one of `allowedHosts`.
 */
export function hostAllowed(req: IncomingMessage, allowedHosts: readonly string[] = []): boolean {
  const allowed = (name: string | undefined) =>
    name !== undefined && (LOOPBACK_NAMES.has(name) || allowedHosts.includes(name));
  const host = req.headers.host;
  if (!host || !allowed(hostName(host))) return false;
  const origin = req.headers.origin;
  return origin === undefined || allowed(hostName(origin));
}
