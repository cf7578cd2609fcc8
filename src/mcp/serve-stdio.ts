import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { buildMcpServer, servedTools } from './create-mcp-server';
import type { McpServerOptions, McpToolSource } from './mcp-server-options';

/**
 * Serve tools over this process's stdin and stdout, the transport desktop hosts and IDEs start servers with.
 * Both protocol eras are answered: a client that opens with `initialize` (2025-11-25) and one that sends
 * `server/discover` (2026-07-28). Nothing else may write to stdout while it runs (log to stderr): every stdout
 * line is a protocol message.
 *
 * Resolves once serving, with a `close` that ends it.
 *
 * @example
 * await serveStdio(toolsFrom(new WeatherTools(api)), { name: 'weather', version: '1.0.0' });
 */
export async function serveStdio(
  tools: McpToolSource,
  options: McpServerOptions,
): Promise<{ close: () => Promise<void> }> {
  const served = servedTools(tools);
  // Over stdio the host that started the process is the caller; there is no token to read.
  const handle = serveSdkStdio(() => buildMcpServer(served, options, () => undefined));
  return { close: () => handle.close() };
}
