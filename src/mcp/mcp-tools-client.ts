import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The client calls `mcpTools` needs: a connected SDK `Client`, or anything with the same two methods. */
export type McpToolsClient = Pick<Client, 'listTools' | 'callTool'>;
