/**
 * One MCP HTTP server in a process of its own, for `bench/mcp-http-call`: `agentcall` (a decorated tool served by
 * `createMcpHttpHandler`) or `sdk` (the same tool on the bare SDK v2: `McpServer` per request through the SDK's
 * `createMcpHandler`). It sends its port to the parent and answers each `'cpu'` message with its CPU time.
 */
import 'reflect-metadata';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { IsNumber } from 'class-validator';
import { Param, Tool, toolsFrom } from '../../src';
import { createMcpHttpHandler } from '../../src/mcp';

class AddArgs {
  @Param({ description: 'First number' })
  @IsNumber()
  a!: number;

  @Param({ description: 'Second number' })
  @IsNumber()
  b!: number;
}

class Calculator {
  @Tool({ description: 'Add two numbers' })
  add(@Param() { a, b }: AddArgs): string {
    return String(a + b);
  }
}

const ADD_SCHEMA = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'First number' },
    b: { type: 'number', description: 'Second number' },
  },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

/** The bare SDK: the server its docs show for stateless serving, a Node request turned into a web one and back. */
function sdkServer(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' });
    server.registerTool(
      'add',
      { description: 'Add two numbers', inputSchema: fromJsonSchema<{ a: number; b: number }>(ADD_SCHEMA) },
      async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
    );
    return server;
  });
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    const response = await mcp.fetch(request);
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  };
}

function agentcallServer(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const mcp = createMcpHttpHandler(toolsFrom(new Calculator()), {
    name: 'agentcall',
    version: '1.0.0',
    allowAnonymous: true,
  });
  return (req, res) => mcp(req, res);
}

const handle = process.argv[2] === 'sdk' ? sdkServer() : agentcallServer();
const http = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1', () => {
  process.send!({ port: (http.address() as AddressInfo).port });
});
process.on('message', (message) => {
  if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
