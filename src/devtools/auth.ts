import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Names that reach this machine only: a page served under any other name may be a DNS-rebinding attack. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A fresh random token for the page's URL. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
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
