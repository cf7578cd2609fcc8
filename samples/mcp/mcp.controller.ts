import { All, Controller, Req, Res, type OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mcpHandlerForRegistry } from '../../src/mcp';
import { ToolRegistry } from '../../src/nestjs';

/**
 * Every `@Tool` provider of the Nest application, served to MCP clients at `/mcp` (Streamable HTTP). Nest has
 * parsed the JSON body already; the handler takes it as the third argument.
 *
 * The sample listens on 127.0.0.1 and serves anyone who reaches it (`allowAnonymous`). A real application puts
 * its authentication in front (a guard on `handle`) and passes who is calling instead:
 * `caller: (_auth, req) => (req as { user?: User }).user`.
 */
@Controller('mcp')
export class McpController implements OnApplicationShutdown {
  private readonly mcp;

  constructor(registry: ToolRegistry) {
    this.mcp = mcpHandlerForRegistry(registry, { name: 'agentcall-nest', version: '1.0.0', allowAnonymous: true });
  }

  @All()
  handle(@Req() req: IncomingMessage & { body?: unknown }, @Res() res: ServerResponse): Promise<void> {
    return this.mcp(req, res, req.body);
  }

  onApplicationShutdown(): Promise<void> {
    return this.mcp.close();
  }
}
