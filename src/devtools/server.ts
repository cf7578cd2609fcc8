import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkToken, cookieName, givenToken, hostAllowed, newToken, tokenCookie, tokenMatches } from './auth';
import { handleApi } from './api';
import { SECURITY_HEADERS, send } from './respond';
import { pageHtml } from './page-html';
import { SseHub } from './sse';
import type { Devtools, DevtoolsOptions } from './options';
import { uiAssets } from './ui-bundle';

export type { Devtools, DevtoolsOptions } from './options';

/**
 * Serve the devtools page on 127.0.0.1. Every request needs the URL's token (401 otherwise) and a loopback
 * `Host` and `Origin` (403 otherwise), so neither another site nor another user of the machine can read or steer
 * the runs. Opening the URL moves the token into a cookie of the page (`HttpOnly`, `SameSite=Strict`) and drops it
 * from the address bar and the history. A `token` under 32 characters is refused.
 *
 * @example
 * const devtools = await startDevtools({ source: recorder.source });
 * console.log(`devtools: ${devtools.url}`);
 */
export async function startDevtools(options: DevtoolsOptions): Promise<Devtools> {
  const token = options.token === undefined ? newToken() : checkToken(options.token);
  let cookie = '';
  const hub = new SseHub();
  const changed = new Set<string>();
  let listChanged = false;
  let flush: NodeJS.Timeout | undefined;
  // Changes are coalesced: a run streaming thousands of deltas a second costs the page a few refreshes.
  const unsubscribe = options.source.subscribe((runId) => {
    if (runId === undefined) listChanged = true;
    else changed.add(runId);
    flush ??= setTimeout(() => {
      flush = undefined;
      hub.send('changed', { runs: [...changed], list: listChanged || changed.size > 0 });
      changed.clear();
      listChanged = false;
    }, 100);
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error');
      else res.end();
      void error;
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req, options.allowedHosts)) return send(res, 403, 'text/plain', 'Forbidden host or origin');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!tokenMatches(token, givenToken(req, url, cookie))) return send(res, 401, 'text/plain', 'Unauthorized');
    if (req.method === 'GET' && url.pathname === '/' && url.searchParams.has('token'))
      // The link keeps working, and the address bar and history keep only `/` (a fragment such as `#/run/x` stays).
      return send(res, 303, 'text/plain', 'See /', { location: '/', 'set-cookie': tokenCookie(cookie, token) });
    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', pageHtml());
    if (req.method === 'GET' && url.pathname === '/app.js')
      return send(res, 200, 'text/javascript; charset=utf-8', (await uiAssets()).js);
    if (req.method === 'GET' && url.pathname === '/app.css')
      return send(res, 200, 'text/css; charset=utf-8', (await uiAssets()).css);
    if (req.method === 'GET' && url.pathname === '/api/events') {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      return hub.add(res);
    }
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url, options);
    return send(res, 404, 'text/plain', 'Not found');
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  cookie = cookieName(port);
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () =>
      (closed ??= (async () => {
        unsubscribe();
        if (flush) clearTimeout(flush);
        hub.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await options.source.close?.();
      })()),
  };
}
