import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './create-mcp-server';
import type { McpServerOptions, McpToolSource } from './mcp-server-options';

/**
 * Serve tools over this process's stdin and stdout, the transport desktop hosts and IDEs start servers with.
 * Nothing else may write to stdout while it runs (log to stderr): every stdout line is a protocol message.
 *
 * Resolves once connected, with the server and a `close` that ends it.
 *
 * @example
 * await serveStdio(toolsFrom(new WeatherTools(api)), { name: 'weather', version: '1.0.0' });
 */
export async function serveStdio(
  tools: McpToolSource,
  options: McpServerOptions,
): Promise<{ server: Server; close: () => Promise<void> }> {
  const server = createMcpServer(tools, options);
  await server.connect(new StdioServerTransport());
  return { server, close: () => server.close() };
}
