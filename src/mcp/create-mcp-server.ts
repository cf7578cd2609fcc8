import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../index';
import type { McpServerOptions, McpToolSource } from './mcp-server-options';
import { runMcpCall } from './run-mcp-call';

/**
 * An MCP server (the SDK's `Server`) that lists each tool with its description and JSON Schema and runs each
 * `tools/call` through `runTool`: the same validation, timeouts, abort signal and masked error text as in
 * `runAgentLoop`. A failed call is a result with `isError: true` carrying that text (the model reads it and can
 * correct itself); an unknown tool name is a protocol error, as the MCP specification asks. Cancelling a request
 * aborts the tool's `signal`.
 *
 * Connect it to any transport: `serveStdio`, `createMcpHttpHandler`, or the SDK's own (`InMemoryTransport` in tests).
 *
 * @example
 * const server = createMcpServer(toolsFrom(new WeatherTools(api)), { name: 'weather', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(tools: McpToolSource, options: McpServerOptions): Server {
  const list = typeof tools === 'function' ? tools() : tools;
  const byName = new Map<string, ToolDefinition>();
  for (const tool of list) {
    const name = tool.schema.function.name;
    if (!byName.has(name)) byName.set(name, tool); // runTool's rule: the first of a name wins
  }
  const listed = [...byName.values()].map(describeTool);
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} }, ...(options.instructions !== undefined && { instructions: options.instructions }) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Call tool not found: ${request.params.name}`);
    return runMcpCall({
      tool,
      requestId: extra.requestId,
      args: request.params.arguments,
      signal: extra.signal,
      defaultTimeoutMs: options.defaultTimeoutMs,
      maxResponseChars: options.maxResponseChars,
    });
  });
  return server;
}

function describeTool(tool: ToolDefinition): McpTool {
  const { name, description, parameters } = tool.schema.function;
  // MCP requires an object schema; a tool without parameters takes an empty object.
  const inputSchema = (parameters ?? { type: 'object', properties: {} }) as McpTool['inputSchema'];
  return {
    name,
    ...(description !== undefined && { description }),
    inputSchema: inputSchema.type === 'object' ? inputSchema : { ...inputSchema, type: 'object' },
  };
}
