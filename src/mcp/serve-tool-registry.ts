import type { ToolDefinition } from '../index';
import { createMcpHttpHandler, type McpHttpHandler } from './create-mcp-http-handler';
import type { McpServerOptions } from './mcp-server-options';

/** What the handler needs from the NestJS `ToolRegistry` (`agentcall/nestjs`): its tools. */
export type ToolRegistryLike = { getTools(): readonly ToolDefinition[] };

/**
 * A Streamable HTTP handler serving a NestJS `ToolRegistry`'s tools: every discovered `@Tool` provider, read
 * when each session starts (so tools discovered at module init are there). Mount it in a controller:
 *
 * @example
 * @Controller('mcp')
 * export class McpController implements OnApplicationShutdown {
 *   private readonly mcp = mcpHandlerForRegistry(this.registry, { name: 'shop', version: '1.0.0' });
 *   constructor(private readonly registry: ToolRegistry) {}
 *   @All() handle(@Req() req: Request, @Res() res: Response) { return this.mcp(req, res, req.body); }
 *   onApplicationShutdown() { return this.mcp.close(); }
 * }
 */
export function mcpHandlerForRegistry(registry: ToolRegistryLike, options: McpServerOptions): McpHttpHandler {
  return createMcpHttpHandler(() => registry.getTools(), options);
}
