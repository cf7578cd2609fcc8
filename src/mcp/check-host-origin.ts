import type { IncomingMessage } from 'node:http';

/** The names a loopback server is reached by; a rebound DNS name is never one of them. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What a request's `Host` and `Origin` may be: loopback names, plus what the app lists. */
export type HostOriginPolicy = {
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
};

/**
 * Why `req` must be refused (403) as a possible DNS-rebinding or cross-site request, or `undefined` when it may
 * go on. `Host` must name a loopback host or one of `allowedHosts` (the port does not matter unless the entry
 * gives one); `Origin`, when a browser sends it, must be a loopback origin or one of `allowedOrigins`.
 *
 * @internal
 */
export function hostOriginProblem(req: IncomingMessage, policy: HostOriginPolicy): string | undefined {
  const host = req.headers.host;
  if (!host) return 'Missing Host header';
  const hostname = hostnameOf(`http://${host}`);
  const hosts = policy.allowedHosts ?? [];
  const hostAllowed =
    hostname !== undefined && (LOOPBACK_NAMES.has(hostname) || hosts.includes(hostname) || hosts.includes(host));
  if (!hostAllowed) return 'Host not allowed';
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const originHost = hostnameOf(origin);
  const originAllowed =
    (originHost !== undefined && LOOPBACK_NAMES.has(originHost)) || (policy.allowedOrigins ?? []).includes(origin);
  return originAllowed ? undefined : 'Origin not allowed';
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
