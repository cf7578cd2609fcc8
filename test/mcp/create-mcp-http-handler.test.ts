import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Param, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp';

class ShopTools {
  readonly seen: ToolExecuteContext[] = [];

  @Tool({ description: 'Price of an item' })
  price(@Param('sku') sku: string): { sku: string; cents: number } {
    return { sku, cents: sku.length * 100 };
  }

  @Tool({ description: 'Waits until cancelled' })
  async hold(@Ctx() ctx?: ToolExecuteContext): Promise<string> {
    this.seen.push(ctx!);
    await new Promise((resolve) => ctx!.signal.addEventListener('abort', resolve, { once: true }));
    return 'released';
  }
}

describe('createMcpHttpHandler: Streamable HTTP on 127.0.0.1, driven by the SDK Client', () => {
  const shop = new ShopTools();
  let handler: McpHttpHandler;
  let http: HttpServer;
  let url: URL;

  beforeAll(async () => {
    // Identity is covered in test/security/mcp-http.test.ts; these tests are about the transport.
    handler = createMcpHttpHandler(toolsFrom(shop), { name: 'shop', version: '1.0.0', allowAnonymous: true });
    http = createServer((req, res) => {
      if (req.url === '/mcp') void handler(req, res);
      else res.writeHead(404).end();
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    await handler.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  async function connect() {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 'http-client', version: '0.0.1' });
    await client.connect(transport);
    return { client, transport };
  }

  it('serves list and call in a session of its own per client', async () => {
    const a = await connect();
    const b = await connect();
    expect(a.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(handler.sessionCount).toBe(2);
    const { tools } = await a.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['price', 'hold']);
    const result = await b.client.callTool({ name: 'price', arguments: { sku: 'abc' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"sku":"abc","cents":300}' }]);
    const invalid = await b.client.callTool({ name: 'price', arguments: {} });
    expect(invalid).toMatchObject({
      isError: true,
      content: [{ text: 'Invalid arguments for tool "price":\nsku: sku is required' }],
    });
    await a.transport.terminateSession();
    await b.transport.terminateSession();
    await Promise.all([a.client.close(), b.client.close()]);
    expect(handler.sessionCount).toBe(0);
  });

  it("a client's cancellation reaches the tool's signal over HTTP", async () => {
    const { client, transport } = await connect();
    const controller = new AbortController();
    const pending = client.callTool({ name: 'hold', arguments: {} }, { signal: controller.signal });
    while (shop.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toThrow();
    while (!shop.seen[0].signal.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(shop.seen[0].signal.aborted).toBe(true);
    await transport.terminateSession();
    await client.close();
  });

  it('refuses an unknown session and a first request that is not a POST', async () => {
    const unknown = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
  });

  it('a 2026-07-28 client is served statelessly on the same endpoint', async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 'modern', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['price', 'hold']);
    const result = await client.callTool({ name: 'price', arguments: { sku: 'abcd' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"sku":"abcd","cents":400}' }]);
    expect(transport.sessionId).toBeUndefined();
    expect(handler.sessionCount).toBe(0);
    await client.close();
  });

  it("a session's SSE stream starts with a priming event that tells the client when to reconnect", async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const call = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'price', arguments: { sku: 'a' } },
      }),
    });
    expect(call.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = (await call.text()).split('\n\n').filter(Boolean);
    expect(events[0]).toMatch(/^id: \S+\nretry: 1000\ndata: $/m);
    expect(events.at(-1)).toContain(String.raw`\"cents\":100`);
    await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
  });

  it('opens no session for a first request that is not initialize', async () => {
    const before = handler.sessionCount;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    await response.text();
    expect(handler.sessionCount).toBe(before);
  });
});
