import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { hostOriginProblem } from './check-host-origin';
import { buildMcpServer } from './create-mcp-server';
import type { McpHttpOptions, McpToolSource } from './mcp-server-options';
import { McpSessions, type McpSession } from './mcp-sessions';
import { readJsonBody } from './read-json-body';

/** Defaults of the HTTP guards (see {@link McpHttpOptions}). */
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A Streamable HTTP endpoint: call it with every request to the MCP path (POST, GET and DELETE). `body` is the
 * already-parsed JSON body when a framework parsed it (Express `express.json()`, Nest); without it the handler
 * reads the request itself.
 */
export type McpHttpHandler = {
  (req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
  /** End every open session (call it when the HTTP server shuts down). */
  close(): Promise<void>;
  /** How many sessions are open. */
  readonly sessionCount: number;
};

type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * Serve tools over MCP's Streamable HTTP transport, on any Node HTTP stack: a `node:http` server, an Express
 * route or a NestJS controller. Each client gets a session (the `mcp-session-id` header) with its own server, so
 * a client's `notifications/cancelled` reaches the call it cancels; a session ends when the client sends
 * DELETE, when it has been idle for `sessionIdleMs`, or when `close()` is called.
 *
 * Every request is checked, in this order, before any session sees it:
 * 1. `Host` and `Origin` name loopback hosts or what `allowedHosts` / `allowedOrigins` list, else 403;
 * 2. it has an identity (`req.auth`, or what `caller(authInfo, req)` returns), else 401 unless
 *    `allowAnonymous: true`; the identity reaches tools as `ctx.caller`;
 * 3. its body is at most `maxBodyBytes` (4 MiB), else 413, before anything parses it;
 * 4. a new session fits in `maxSessions` (100), else 503.
 *
 * Authentication itself stays the app's job: run your auth middleware in front (the SDK's `requireBearerAuth`
 * sets `req.auth`) or pass `caller`.
 *
 * @example
 * const mcp = createMcpHttpHandler(tools, { name: 'weather', version: '1.0.0', caller: (_auth, req) => userOf(req) });
 * http.createServer((req, res) => (req.url === '/mcp' ? mcp(req, res) : notFound(res))).listen(3000, '127.0.0.1');
 * // Express: app.all('/mcp', requireBearerAuth({ verifier }), express.json(), (req, res) => mcp(req, res, req.body));
 */
export function createMcpHttpHandler(tools: McpToolSource, options: McpHttpOptions): McpHttpHandler {
  const sessions = new McpSessions(
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
  );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Each request's identity, keyed by the auth object handed to the SDK with it: the SDK gives that object back
  // to the request handlers of that message, whichever session serves it.
  const callers = new WeakMap<object, unknown>();
  const callerOf = (authInfo: AuthInfo | undefined) => (authInfo ? callers.get(authInfo) : undefined);

  const serve = (
    session: McpSession,
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    caller: unknown,
  ) => {
    const carrier: AuthInfo = { token: '', clientId: '', scopes: [], ...req.auth };
    callers.set(carrier, caller);
    sessions.track(session, res);
    // The transport reads `req.auth` once, synchronously, when the call starts; the app's value is put back at once.
    const previous = req.auth;
    req.auth = carrier;
    try {
      return session.transport.handleRequest(req, res, body);
    } finally {
      req.auth = previous;
    }
  };

  const handler = async (req: AuthenticatedRequest, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const refused = hostOriginProblem(req, options);
    if (refused) return reply(res, 403, refused);
    const caller = await identify(req, options);
    if (caller === undefined && options.allowAnonymous !== true) {
      return reply(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
    }
    let body = parsedBody;
    if (req.method === 'POST' && body === undefined) {
      const read = await readJsonBody(req, maxBodyBytes);
      if (!read.ok) return reply(res, read.status, read.message, read.status === 413 ? { connection: 'close' } : {});
      body = read.body;
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session) return serve(session, req, res, body, caller);
      return reply(res, 404, 'Session not found');
    }
    if (req.method !== 'POST' || !opensSession(body)) {
      return reply(res, 400, 'No session: start one with an initialize request');
    }
    const release = sessions.reserve();
    if (!release) return reply(res, 503, 'Too many open sessions', { 'retry-after': '60' });
    try {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          release();
          sessions.add(id, session);
        },
      });
      const session: McpSession = { transport, server: buildMcpServer(tools, options, callerOf), inflight: 0 };
      transport.onclose = () => sessions.remove(transport.sessionId);
      await session.server.connect(transport);
      await serve(session, req, res, body, caller);
      // An initialize the transport refused opened no session: nothing will ever reach this server again.
      if (transport.sessionId === undefined) await session.server.close();
    } finally {
      release();
    }
  };

  return Object.defineProperties(handler, {
    close: { value: () => sessions.closeAll() },
    sessionCount: { get: () => sessions.size },
  }) as McpHttpHandler;
}

/** The request's identity: `caller(authInfo, req)` when given, else `req.auth`; nothing, null or a throw is none. */
async function identify(req: AuthenticatedRequest, options: McpHttpOptions): Promise<unknown> {
  if (!options.caller) return req.auth ?? undefined;
  try {
    return (await options.caller(req.auth, req)) ?? undefined;
  } catch {
    return undefined;
  }
}

function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
