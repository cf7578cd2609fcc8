import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { hostOriginProblem } from './check-host-origin';
import {
  askBackOf,
  buildMcpServer,
  servedTools,
  tasksOf,
  type ServedMembers,
  type ServedTools,
} from './create-mcp-server';
import type { McpHttpOptions, McpToolSource } from './mcp-server-options';
import { McpSessions, type McpSession } from './mcp-sessions';
import { sendWebResponse, toWebRequest } from './node-web-bridge';
import { readJsonBody } from './read-json-body';
import { answerModernCall } from './serve-modern-call';
import { SessionEventStore } from './session-event-store';

/** Defaults of the HTTP guards (see {@link McpHttpOptions}). */
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Messages a session keeps for a client that reconnects to a broken SSE stream. */
const REPLAYED_EVENTS = 100;
/** How long a client waits before reconnecting to a closed SSE stream (the `retry` field of the priming event). */
const SSE_RETRY_MS = 1_000;

/** JSON-RPC's code for a body that is not JSON, and the one the transports use for HTTP-level refusals. */
const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

/**
 * A Streamable HTTP endpoint: call it with every request to the MCP path (POST, GET and DELETE). `body` is the
 * already-parsed JSON body when a framework parsed it (Express `express.json()`, Nest); without it the handler
 * reads the request itself.
 */
export type McpHttpHandler = {
  (req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
  /** End every open session (call it when the HTTP server shuts down). */
  close(): Promise<void>;
  /** How many 2025-era sessions are open. */
  readonly sessionCount: number;
};

type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * Serve tools over MCP's Streamable HTTP transport, on any Node HTTP stack: a `node:http` server, an Express
 * route or a NestJS controller. One endpoint answers both protocol eras:
 *
 * - a 2026-07-28 client (its requests carry the `_meta` envelope) is served statelessly, each request by a
 *   server of its own, so any instance behind a load balancer can answer it;
 * - a 2025-11-25 client gets a session (the `mcp-session-id` header) with its own server, so its
 *   `notifications/cancelled` reaches the call it cancels and a server request (elicitation) reaches it; a
 *   session ends when the client sends DELETE, when it has been idle for `sessionIdleMs`, or on `close()`. Its
 *   SSE streams start with a priming event and a `retry` field, and a client that reconnects with
 *   `Last-Event-ID` gets the messages it missed (the last 100).
 *
 * Every request is checked, in this order, before any server sees it:
 * 1. `Host` and `Origin` name loopback hosts or what `allowedHosts` / `allowedOrigins` list, else 403;
 * 2. it has an identity (`req.auth`, or what `caller(authInfo, req)` returns), else 401 unless
 *    `allowAnonymous: true` (with `protectedResource`, the 401 points clients at its metadata); the identity
 *    reaches tools as `ctx.caller`;
 * 3. its body is at most `maxBodyBytes` (4 MiB), else 413, before anything parses it, and is JSON, else 400
 *    with JSON-RPC's `-32700`;
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
  return serveMcpHttp(tools, options);
}

/**
 * {@link createMcpHttpHandler}, the resources and prompts read from `members` (when given) each time a server is
 * built, so that a registry filled after the handler was made serves what it holds.
 *
 * @internal
 */
export function serveMcpHttp(
  tools: McpToolSource,
  options: McpHttpOptions,
  members?: () => ServedMembers,
): McpHttpHandler {
  const sessions = new McpSessions(
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
  );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Each request's identity, keyed by the auth object handed to the SDK with it: the SDK gives that object back
  // to the request handlers of that message, whichever server serves it.
  const callers = new WeakMap<object, unknown>();
  const callerOf = (authInfo: AuthInfo | undefined) => (authInfo ? callers.get(authInfo) : undefined);
  // Made now, so that a `stateSecret` too short to sign with throws here rather than on some later request.
  askBackOf(options, callerOf);
  // A fixed list is indexed once; a function (a registry filled later) is read for each server.
  const fixed = typeof tools === 'function' ? undefined : servedTools(tools);
  const served = (): ServedTools => fixed ?? servedTools(tools);
  const modern = createMcpHandler(() => buildMcpServer(served(), options, callerOf, members?.()), {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
  });
  const metadata = protectedResourceMetadata(options);

  const carry = (req: AuthenticatedRequest, caller: unknown): AuthInfo => {
    const carrier: AuthInfo = { token: '', clientId: '', scopes: [], ...req.auth };
    callers.set(carrier, caller);
    return carrier;
  };

  const serveLegacy = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    authInfo: AuthInfo,
  ): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found');
      sessions.track(session, res);
      const request = toWebRequest(req, res, body);
      return sendWebResponse(await session.transport.handleRequest(request, { parsedBody: body, authInfo }), res);
    }
    if (req.method !== 'POST' || !opensSession(body)) {
      return reply(res, 400, 'No session: start one with an initialize request');
    }
    const release = sessions.reserve();
    if (!release) return reply(res, 503, 'Too many open sessions', { 'retry-after': '60' });
    try {
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          release();
          sessions.add(id, session);
        },
        eventStore: new SessionEventStore(REPLAYED_EVENTS),
        retryInterval: SSE_RETRY_MS,
      });
      const session: McpSession = {
        transport,
        server: buildMcpServer(served(), options, callerOf, members?.()),
        inflight: 0,
      };
      transport.onclose = () => sessions.remove(transport.sessionId);
      await session.server.connect(transport);
      sessions.track(session, res);
      const request = toWebRequest(req, res, body);
      await sendWebResponse(await transport.handleRequest(request, { parsedBody: body, authInfo }), res);
      // An initialize the transport refused opened no session: nothing will ever reach this server again.
      if (transport.sessionId === undefined) await session.server.close();
    } finally {
      release();
    }
  };

  const handler = async (req: AuthenticatedRequest, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const refused = hostOriginProblem(req, options);
    if (refused) return reply(res, 403, refused);
    if (metadata && req.method === 'GET' && req.url?.startsWith('/.well-known/oauth-protected-resource')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(metadata.document));
    }
    const caller = await identify(req, options);
    if (caller === undefined && options.allowAnonymous !== true) {
      const challenge = metadata ? `Bearer resource_metadata="${metadata.url}"` : 'Bearer';
      return reply(res, 401, UNAUTHORIZED, { 'www-authenticate': challenge });
    }
    let body = parsedBody;
    if (req.method === 'POST' && body === undefined) {
      const read = await readJsonBody(req, maxBodyBytes);
      if (!read.ok) {
        if (read.status === 413) return reply(res, 413, read.message, { connection: 'close' });
        return reply(res, 400, read.message, {}, PARSE_ERROR);
      }
      body = read.body;
    }
    const authInfo = carry(req, caller);
    if (req.method === 'POST' && typeof req.headers['mcp-session-id'] !== 'string') {
      const askBack = askBackOf(options, callerOf);
      const modernCall = { headers: req.headers, body, res, served: served(), options, askBack, authInfo, caller };
      if (await answerModernCall(modernCall)) return;
    }
    const request = toWebRequest(req, res, body);
    // A request without the 2026 envelope (an initialize, a session's traffic) belongs to the 2025 era.
    if (typeof req.headers['mcp-session-id'] === 'string' || (await isLegacyRequest(request, body ?? null))) {
      return serveLegacy(req, res, body, authInfo);
    }
    return sendWebResponse(await modern.fetch(request, { authInfo, parsedBody: body }), res);
  };

  return Object.defineProperties(handler, {
    close: {
      value: async () => {
        tasksOf(options, callerOf).close();
        await Promise.all([sessions.closeAll(), modern.close()]);
      },
    },
    sessionCount: { get: () => sessions.size },
  }) as McpHttpHandler;
}

/** What a 401 says: how to give the request an identity, or to serve without one. */
const UNAUTHORIZED =
  'Unauthorized: this MCP endpoint needs a caller. Put auth middleware in front (it sets req.auth), pass ' +
  '`caller: (authInfo, req) => …` to name who calls, or set `allowAnonymous: true` for a server nothing untrusted reaches.';

/** The protected-resource metadata document and where it is served, when the app configured it. */
function protectedResourceMetadata(options: McpHttpOptions): { url: string; document: object } | undefined {
  const configured = options.protectedResource;
  if (!configured) return undefined;
  return {
    url: getOAuthProtectedResourceMetadataUrl(new URL(configured.resource)),
    document: {
      resource: configured.resource,
      authorization_servers: [...configured.authorizationServers],
      ...(configured.scopesSupported && { scopes_supported: [...configured.scopesSupported] }),
    },
  };
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

function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = SERVER_ERROR,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
