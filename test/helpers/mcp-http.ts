import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpHttpHandler } from '../../src/mcp';

/** An MCP HTTP handler listening on loopback, and how to stop it. */
export type ListeningMcp = {
  /** Its endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** Close the handler's sessions and tasks, then the server, cutting any connection still open. */
  stop(): Promise<void>;
};

/** Serve `handler` over real HTTP on a free loopback port. */
export async function listenMcp(handler: McpHttpHandler): Promise<ListeningMcp> {
  const http = createServer((req, res) => void handler(req, res));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`),
    stop: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
