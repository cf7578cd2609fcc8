/**
 * agentcall/mcp: serve agentcall tools over the Model Context Protocol, and use an MCP server's tools in
 * `runAgentLoop`. Needs the optional peers `@modelcontextprotocol/sdk` (1.x), `ajv` and `ajv-formats`.
 */
export { createMcpServer } from './create-mcp-server';
export { createMcpHttpHandler } from './create-mcp-http-handler';
export type { McpHttpHandler } from './create-mcp-http-handler';
export { serveStdio } from './serve-stdio';
export { mcpHandlerForRegistry } from './serve-tool-registry';
export type { ToolRegistryLike } from './serve-tool-registry';
export { mcpTools, McpToolCallError } from './mcp-tools';
export type { McpListingReport, McpToolsClient, McpToolsOptions } from './mcp-tools';
export { McpSchemaError } from './mcp-schema-error';
export type { McpSchemaProblem } from './mcp-schema-error';
export type {
  McpAuthInfo,
  McpHttpOptions,
  McpServerOptions,
  McpToolSource,
  McpToolVisibility,
} from './mcp-server-options';
