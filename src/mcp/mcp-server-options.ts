import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../index';
import type { McpPromptDefinition } from './prompts-from';
import type { QueuedToolCalls } from './queued-tool-calls';
import type { McpResourceDefinition } from './resources-from';
import type { ResourceUpdates } from './resource-updates';

/** Options of {@link createMcpServer} and `serveStdio`. */
export type McpServerOptions = {
  /** The server name hosts show (`serverInfo.name`). */
  name: string;
  /** The server version (`serverInfo.version`). */
  version: string;
  /** Text hosts may add to the model's instructions. */
  instructions?: string;
  /** Timeout for tools that set no `timeoutMs` of their own (the same as `runTool`'s `defaultTimeoutMs`). */
  defaultTimeoutMs?: number;
  /** Cap each result's text at about this many characters, keeping its head and tail. Default: no cap. */
  maxResponseChars?: number;
  /**
   * Whether `caller` may see `tool`: a tool it says no to (or throws for) is left out of `tools/list` and a call
   * of it is answered as an unknown tool. Asked on every listing and call, so it can follow roles that change.
   * Default: every caller sees every tool. `mcpHandlerForRegistry` asks the tool's Nest guards instead.
   *
   * @example
   * visible: (tool, caller) => !tool.schema.function.name.startsWith('admin_') || isAdmin(caller)
   */
  visible?: McpToolVisibility;
  /** Resources to list and read (`resourcesFrom(...instances)`), templates included. */
  resources?: readonly McpResourceDefinition[];
  /** Prompts to list and get (`promptsFrom(...instances)`). */
  prompts?: readonly McpPromptDefinition[];
  /**
   * The key (at least 32 bytes) that signs the `requestState` of a question a tool asks back (it returned
   * `interactive`, or needs approval): give every instance behind a load balancer the same one, and the answer
   * can come to any of them. Without it, a random key of this process: only this process takes the answer.
   */
  stateSecret?: string | Uint8Array;
  /**
   * Where the app says a resource changed (`updates.updated(uri)`): clients subscribed to that URI get
   * `notifications/resources/updated`. Without it, subscriptions are accepted and no update is ever sent.
   */
  resourceUpdates?: ResourceUpdates;
  /**
   * Where the tasks of `@Tool({ task: true })` calls run, and their limits. Without `runs`, each runs in this process
   * and is read with `tasks/get` by its caller only: at most `maxTasks` kept at once (default 1,000; past it the
   * oldest ended task goes, and a call finding only running ones is answered with an error), each kept at most
   * `maxTtlMs` after it started (default one hour, whatever the client asks), and gone with the process.
   *
   * With `runs` (an `AgentRuns` of `agentcall/bullmq`), each task is a queued tool call that outlives the process: a
   * worker runs it (its tools from the worker's `setup`), and any server instance sharing the Redis answers
   * `tasks/get`, `tasks/result` and `tasks/cancel` for it, to its caller only. `maxTtlMs` still caps how long it is
   * kept; `maxTasks` is the queue's to bound, not this process's.
   */
  tasks?: { maxTasks?: number; maxTtlMs?: number; runs?: QueuedToolCalls };
};

/** Whether a caller may see a tool (see `McpServerOptions.visible`). */
export type McpToolVisibility = (tool: ToolDefinition, caller: unknown) => boolean | Promise<boolean>;

/** The SDK's description of a verified access token, as auth middleware puts it on `req.auth`. */
export type McpAuthInfo = AuthInfo;

/**
 * Options of `createMcpHttpHandler` and `mcpHandlerForRegistry`: the server's, plus what guards the HTTP endpoint.
 * Every guard is on by default; each option below only widens or tunes it.
 */
export type McpHttpOptions = McpServerOptions & {
  /**
   * Host names (or `host:port`) accepted in the `Host` header besides the loopback names `localhost`,
   * `127.0.0.1` and `[::1]`. Any other Host is answered 403 before a session opens (a web page reaching a
   * loopback server through a rebound DNS name sends its own name). List the public name of a deployed server.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`https://app.example.com`) accepted in the `Origin` header besides loopback ones. A request without
   * `Origin` (not from a browser) passes; any other origin is answered 403 before a session opens.
   */
  allowedOrigins?: readonly string[];
  /**
   * Who is calling, from the SDK's `authInfo` (what auth middleware put on `req.auth`) and the request; tools get
   * it as `ctx.caller` and Nest guards see it. It may return a promise. Returning (or resolving to) `undefined` or
   * `null`, or throwing, means no identity.
   * Default: `req.auth` itself.
   *
   * @example
   * caller: (_auth, req) => (req as Request).user   // what a Passport strategy or a Nest guard attached
   */
  caller?: (authInfo: McpAuthInfo | undefined, req: IncomingMessage) => unknown;
  /**
   * Serve requests that carry no identity (tools get `ctx.caller === undefined`). Default false: such a request
   * is answered 401. Only for a server that nothing untrusted can reach.
   */
  allowAnonymous?: boolean;
  /**
   * At most this many sessions open at once; an `initialize` past it is answered 503 with `Retry-After` until a
   * session ends (DELETE, idle expiry, `close()`). Open sessions are never evicted for a new one. Default 100.
   */
  maxSessions?: number;
  /**
   * A session with no request in flight and none for this long closes (its client gets 404 and starts another).
   * Default 600,000 (10 minutes).
   */
  sessionIdleMs?: number;
  /** A request body over this many bytes is answered 413 before anything parses it. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * SSE polling for long calls of 2025-era sessions: a `tools/call` still running after this many milliseconds
   * has its SSE stream closed (the priming event told the client to come back after `retry`); the client
   * reconnects with `Last-Event-ID` and gets the result then. No connection stays open through a long call, so
   * proxies that cut idle connections lose nothing. Default: off (the stream stays open until the result).
   */
  pollAfterMs?: number;
  /**
   * OAuth protected-resource metadata (RFC 9728) for MCP clients that log in by themselves: a 401 then says
   * `WWW-Authenticate: Bearer resource_metadata="…"`, and a GET of `/.well-known/oauth-protected-resource…`
   * routed to the handler answers the document. Verifying the tokens stays the job of the auth in front.
   *
   * @example
   * protectedResource: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] }
   */
  protectedResource?: McpProtectedResource;
};

/** What `McpHttpOptions.protectedResource` announces. */
export type McpProtectedResource = {
  /** This server's MCP endpoint URL, the audience its tokens are issued for. */
  resource: string;
  /** The authorization servers' issuer URLs. */
  authorizationServers: readonly string[];
  /** The scopes a client may ask for. */
  scopesSupported?: readonly string[];
};

/** The tools to serve: a list, or a function read each time a server is created (a registry filled later). */
export type McpToolSource = readonly ToolDefinition[] | (() => readonly ToolDefinition[]);
