import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler, type McpAuthInfo, type McpHttpHandler, type McpHttpOptions } from '../../src/mcp';
import { stretchedTimeout } from '../helpers/stretched-timeout';

class DangerTools {
  readonly callers: unknown[] = [];

  @Tool({ description: 'Deletes everything' })
  delete_everything(@Ctx() ctx?: ToolExecuteContext): string {
    this.callers.push(ctx!.caller);
    return 'deleted';
  }

  @Tool({ description: 'Admin only' })
  admin_report(@Ctx() ctx?: ToolExecuteContext): string {
    this.callers.push(ctx!.caller);
    return 'report';
  }
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
};

type Served = { url: URL; port: number; handler: McpHttpHandler; tools: DangerTools; close: () => Promise<void> };

/** A handler on a real HTTP server on 127.0.0.1, with a stand-in for the app's auth middleware in front. */
async function serve(options: Partial<McpHttpOptions> = {}): Promise<Served> {
  const tools = new DangerTools();
  const handler = createMcpHttpHandler(toolsFrom(tools), { name: 'danger', version: '1.0.0', ...options });
  const http: HttpServer = createServer((req, res) => {
    // What `requireBearerAuth` does: a verified token becomes `req.auth`.
    const token = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token) (req as IncomingMessage & { auth?: McpAuthInfo }).auth = { token, clientId: token, scopes: [] };
    void handler(req, res);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    handler,
    tools,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** A raw POST, with whatever Host and Origin a browser on a rebound name would send. */
function post(
  port: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function connect(url: URL, token?: string, era: 'legacy' | 'auto' = 'legacy') {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'client', version: '0.0.1' }, { versionNegotiation: { mode: era } });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP over HTTP: DNS rebinding', () => {
  let served: Served;
  beforeAll(async () => (served = await serve({ allowAnonymous: true })));
  afterAll(() => served.close());

  it('refuses a page on a rebound name (its Host and Origin) with 403 before a session opens', async () => {
    const evil = `evil.example:${served.port}`;
    const rebound = await post(served.port, JSON.stringify(INITIALIZE), { host: evil, origin: `http://${evil}` });
    expect(rebound.status).toBe(403);
    const foreignOrigin = await post(served.port, JSON.stringify(INITIALIZE), { origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(served.handler.sessionCount).toBe(0);
    expect(served.tools.callers).toEqual([]);
  });

  it('serves loopback names, with or without a loopback Origin', async () => {
    const plain = await post(served.port, JSON.stringify(INITIALIZE), { host: `localhost:${served.port}` });
    expect(plain.status).toBe(200);
    const local = await post(served.port, JSON.stringify(INITIALIZE), { origin: `http://localhost:5173` });
    expect(local.status).toBe(200);
  });

  it('serves the hosts and origins the app lists', async () => {
    const listed = await serve({
      allowAnonymous: true,
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    try {
      const ok = await post(listed.port, JSON.stringify(INITIALIZE), {
        host: 'mcp.example.com',
        origin: 'https://app.example.com',
      });
      expect(ok.status).toBe(200);
      const other = await post(listed.port, JSON.stringify(INITIALIZE), { host: 'other.example.com' });
      expect(other.status).toBe(403);
    } finally {
      await listed.close();
    }
  });
});

describe('MCP over HTTP: identity', () => {
  it('answers a request without identity 401, and gives tools the SDK authInfo as ctx.caller', async () => {
    const served = await serve();
    try {
      const anonymous = await post(served.port, JSON.stringify(INITIALIZE));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      const { client, transport } = await connect(served.url, 'alice');
      await client.callTool({ name: 'delete_everything', arguments: {} });
      expect(served.tools.callers).toEqual([expect.objectContaining({ token: 'alice', clientId: 'alice' })]);
      // A session opened by one identity carries no identity for a request without one.
      const hijack = await post(served.port, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      });
      expect(hijack.status).toBe(401);
      await client.close();
    } finally {
      await served.close();
    }
  });

  it('takes the caller from caller(authInfo, req), per request', async () => {
    const users: Record<string, { id: string; role: string }> = {
      alice: { id: 'alice', role: 'user' },
      root: { id: 'root', role: 'admin' },
    };
    const served = await serve({ caller: async (auth) => (auth ? users[auth.token] : undefined) });
    try {
      expect((await post(served.port, JSON.stringify(INITIALIZE), { authorization: 'Bearer nobody' })).status).toBe(
        401,
      );
      const alice = await connect(served.url, 'alice');
      const root = await connect(served.url, 'root');
      await alice.client.callTool({ name: 'delete_everything', arguments: {} });
      await root.client.callTool({ name: 'delete_everything', arguments: {} });
      expect(served.tools.callers).toEqual([users.alice, users.root]);
      await Promise.all([alice.client.close(), root.client.close()]);
    } finally {
      await served.close();
    }
  });

  it('finds the caller of each stateless 2026-07-28 request, which opens no session', async () => {
    const served = await serve({ caller: (auth) => auth?.token });
    try {
      const alice = await connect(served.url, 'alice', 'auto');
      const root = await connect(served.url, 'root', 'auto');
      expect(alice.client.getProtocolEra()).toBe('modern');
      await root.client.callTool({ name: 'delete_everything', arguments: {} });
      await alice.client.callTool({ name: 'delete_everything', arguments: {} });
      expect(served.tools.callers).toEqual(['root', 'alice']);
      expect(served.handler.sessionCount).toBe(0);
      await Promise.all([alice.client.close(), root.client.close()]);
    } finally {
      await served.close();
    }
  });

  it("a 401 says how to give a caller, and points at the app's protected-resource metadata", async () => {
    const served = await serve({
      protectedResource: {
        resource: 'https://mcp.example.com/mcp',
        authorizationServers: ['https://auth.example.com'],
      },
    });
    try {
      const anonymous = await post(served.port, JSON.stringify(INITIALIZE));
      expect(anonymous.status).toBe(401);
      const message = (JSON.parse(anonymous.text) as { error: { message: string } }).error.message;
      expect(message).toMatch(/allowAnonymous/);
      expect(message).toMatch(/caller/);
      expect(anonymous.headers['www-authenticate']).toBe(
        'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      );
      const document = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served.url));
      expect(await document.json()).toEqual({
        resource: 'https://mcp.example.com/mcp',
        authorization_servers: ['https://auth.example.com'],
      });
    } finally {
      await served.close();
    }
  });

  it('hides tools a visible() hook refuses from tools/list, and answers their calls as unknown', async () => {
    const served = await serve({
      caller: (auth) => auth?.token,
      visible: (tool, caller) => tool.schema.function.name !== 'admin_report' || caller === 'root',
    });
    try {
      const alice = await connect(served.url, 'alice');
      const root = await connect(served.url, 'root');
      expect((await alice.client.listTools()).tools.map((t) => t.name)).toEqual(['delete_everything']);
      expect((await root.client.listTools()).tools.map((t) => t.name)).toEqual(['delete_everything', 'admin_report']);
      await expect(alice.client.callTool({ name: 'admin_report', arguments: {} })).rejects.toThrow(
        'Call tool not found: admin_report',
      );
      expect(served.tools.callers).toEqual([]);
      await Promise.all([alice.client.close(), root.client.close()]);
    } finally {
      await served.close();
    }
  });

  it('serves anonymous callers only when the app says allowAnonymous', async () => {
    const served = await serve({ allowAnonymous: true });
    try {
      const { client } = await connect(served.url);
      await client.callTool({ name: 'delete_everything', arguments: {} });
      expect(served.tools.callers).toEqual([undefined]);
      await client.close();
    } finally {
      await served.close();
    }
  });
});

describe('MCP over HTTP: bodies, sessions and echoed text', () => {
  it("answers a body that is not JSON with JSON-RPC's parse error, -32700", async () => {
    const served = await serve({ allowAnonymous: true });
    try {
      const broken = await post(served.port, '{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(broken.status).toBe(400);
      expect(JSON.parse(broken.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expect(served.handler.sessionCount).toBe(0);
    } finally {
      await served.close();
    }
  });

  it('answers a body over 4 MiB with 413 before parsing, declared or streamed', async () => {
    const served = await serve({ allowAnonymous: true });
    try {
      const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
      expect((await post(served.port, big)).status).toBe(413);
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: served.port,
            path: '/mcp',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1024 * 1024, 0x20));
        req.end();
      });
      expect(chunked).toBe(413);
      expect(served.handler.sessionCount).toBe(0);
    } finally {
      await served.close();
    }
  });

  it(
    'opens at most 100 sessions by default, and refuses more with 503',
    async () => {
      const served = await serve({ allowAnonymous: true });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 105; i++) statuses.push((await post(served.port, JSON.stringify(INITIALIZE))).status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(100);
        expect(statuses.slice(100)).toEqual([503, 503, 503, 503, 503]);
        expect(served.handler.sessionCount).toBe(100);
      } finally {
        await served.close();
      }
    },
    stretchedTimeout(60_000),
  );

  it('closes a session idle for sessionIdleMs, then frees its place', async () => {
    const served = await serve({ allowAnonymous: true, maxSessions: 1, sessionIdleMs: 200 });
    try {
      const first = await post(served.port, JSON.stringify(INITIALIZE));
      const sessionId = first.headers['mcp-session-id'] as string;
      expect(served.handler.sessionCount).toBe(1);
      expect((await post(served.port, JSON.stringify(INITIALIZE))).status).toBe(503);
      while (served.handler.sessionCount > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const stale = await post(served.port, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
        'mcp-session-id': sessionId,
      });
      expect(stale.status).toBe(404);
      expect((await post(served.port, JSON.stringify(INITIALIZE))).status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('repeats at most 200 characters of an unknown tool name', async () => {
    const served = await serve({ allowAnonymous: true });
    try {
      const { client } = await connect(served.url);
      const error = await client.callTool({ name: 'x'.repeat(1_000_000), arguments: {} }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toContain('Call tool not found: xxx');
      expect(error!.message.length).toBeLessThan(300);
      await client.close();
    } finally {
      await served.close();
    }
  });
});
