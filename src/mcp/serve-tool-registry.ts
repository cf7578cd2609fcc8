import type { ToolDefinition } from '../index';
import { createMcpHttpHandler, type McpHttpHandler } from './create-mcp-http-handler';
import type { McpHttpOptions, McpToolVisibility } from './mcp-server-options';

/** What the handler needs from the NestJS `ToolRegistry` (`agentcall/nestjs`): its tools, and who may see them. */
export type ToolRegistryLike = {
  getTools(): readonly ToolDefinition[];
  /** Whether `caller` may see `tool` (the Nest registry asks the guards on the tool's method). */
  isVisible?(tool: ToolDefinition, caller: unknown): boolean | Promise<boolean>;
};

/**
 * A Streamable HTTP handler serving a NestJS `ToolRegistry`'s tools: every discovered `@Tool` provider, read
 * when each session starts (so tools discovered at module init are there). It takes the options of
 * `createMcpHttpHandler`: the same Host/Origin checks, identity (`caller`, 401 without one unless
 * `allowAnonymous`), body and session caps. Each call runs through the tool's guards with the request's caller
 * as `ctx.caller`, and `tools/list` leaves out the tools whose guards would refuse that caller (with
 * `options.visible` as well, when given: a tool is shown when both say yes).
 *
 * @example
 * @Controller('mcp')
 * export class McpController implements OnApplicationShutdown {
 *   private readonly mcp = mcpHandlerForRegistry(this.registry, {
 *     name: 'shop', version: '1.0.0', caller: (_auth, req) => (req as Request & { user?: User }).user,
 *   });
 *   constructor(private readonly registry: ToolRegistry) {}
 *   @All() @UseGuards(AuthGuard('jwt')) handle(@Req() req: Request, @Res() res: Response) { return this.mcp(req, res, req.body); }
 *   onApplicationShutdown() { return this.mcp.close(); }
 * }
 */
export function mcpHandlerForRegistry(registry: ToolRegistryLike, options: McpHttpOptions): McpHttpHandler {
  return createMcpHttpHandler(() => registry.getTools(), {
    ...options,
    visible: visibilityOf(registry, options.visible),
  });
}

function visibilityOf(registry: ToolRegistryLike, own: McpToolVisibility | undefined): McpToolVisibility | undefined {
  const guards = registry.isVisible?.bind(registry);
  if (!guards) return own;
  if (!own) return guards;
  return async (tool, caller) => (await own(tool, caller)) && (await guards(tool, caller));
}
