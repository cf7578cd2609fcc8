import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from './create-mcp-server';
import type { McpServerOptions, McpToolSource } from './mcp-server-options';

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

/**
 * Serve tools over MCP's Streamable HTTP transport, on any Node HTTP stack: a `node:http` server, an Express
 * route or a NestJS controller. Each client gets a session (the `mcp-session-id` header) with its own server, so
 * a client's `notifications/cancelled` reaches the call it cancels; a session ends when the client sends
 * DELETE or `close()` is called.
 *
 * @example
 * const mcp = createMcpHttpHandler(tools, { name: 'weather', version: '1.0.0' });
 * http.createServer((req, res) => (req.url === '/mcp' ? mcp(req, res) : notFound(res))).listen(3000);
 * // Express: app.all('/mcp', express.json(), (req, res) => mcp(req, res, req.body));
 */
export function createMcpHttpHandler(tools: McpToolSource, options: McpServerOptions): McpHttpHandler {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const handler = async (req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport) return transport.handleRequest(req, res, body);
      return reply(res, 404, 'Session not found');
    }
    if (req.method !== 'POST') return reply(res, 400, 'No session: start one with an initialize request');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    const server = createMcpServer(tools, options);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // A first request that was not an initialize opened no session: nothing will ever reach this server again.
    if (transport.sessionId === undefined) await server.close();
  };

  return Object.defineProperties(handler, {
    close: {
      value: async () => {
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(open.map((transport) => transport.close()));
      },
    },
    sessionCount: { get: () => sessions.size },
  }) as McpHttpHandler;
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
