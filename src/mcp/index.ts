/**
 * agentcall/mcp: serve agentcall tools over the Model Context Protocol, and use an MCP server's tools in
 * `runAgentLoop`. Needs the optional peers `@modelcontextprotocol/server` and `@modelcontextprotocol/client` (2.x),
 * `ajv` and `ajv-formats`. A v1 `Client` (`@modelcontextprotocol/sdk`) still works with `mcpTools`.
 */
export { createMcpServer } from './create-mcp-server';
export { createMcpHttpHandler } from './create-mcp-http-handler';
export type { McpHttpHandler } from './create-mcp-http-handler';
export { serveStdio } from './serve-stdio';
export { resourcesFrom } from './resources-from';
export type { McpResourceDefinition } from './resources-from';
export { promptsFrom } from './prompts-from';
export { ResourceUpdates } from './resource-updates';
export type { McpPromptDefinition } from './prompts-from';
export { mcpHandlerForRegistry } from './serve-tool-registry';
export type { ToolRegistryLike } from './serve-tool-registry';
export { mcpTools, McpToolCallError } from './mcp-tools';
export type {
  McpListingReport,
  McpToolsClient,
  McpToolsOptions,
  McpV1ToolsClient,
  McpV2ToolsClient,
} from './mcp-tools';
export type { RemoteCallParams, RemoteCallResult, RemoteTool, ToolsPage } from './mcp-tools-client';
export type { McpTaskIds } from './remote-task-call';
export type { QueuedToolCall, QueuedToolCalls } from './queued-tool-calls';
export { McpSchemaError } from './mcp-schema-error';
export type { McpSchemaProblem } from './mcp-schema-error';
export type {
  McpAuthInfo,
  McpHttpOptions,
  McpProtectedResource,
  McpServerOptions,
  McpToolSource,
  McpToolVisibility,
} from './mcp-server-options';
