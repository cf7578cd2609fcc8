import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  All,
  Controller,
  Injectable,
  Module,
  Req,
  Res,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, DuplicateToolNameError, Tool, type ToolDefinition, type ToolExecuteContext } from '../../src';
import { mcpHandlerForRegistry } from '../../src/mcp';
import { AGENT_TOOL_CONTEXT, AgentToolsModule, ToolRegistry, type AgentToolContextType } from '../../src/nestjs';

type User = { id: string; roles: string[] };
const USERS: Record<string, User> = { alice: { id: 'alice', roles: [] }, root: { id: 'root', roles: ['admin'] } };

const Roles = (...roles: string[]) => SetMetadata('roles', roles);

/** The guard the docs advise: only agent-tool calls, roles read from the caller. */
@Injectable()
class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return true;
    const roles = this.reflector.get<string[] | undefined>('roles', context.getHandler());
    if (!roles) return true;
    const { caller } = context.getArgByIndex<ToolExecuteContext>(1);
    return roles.some((role) => (caller as User).roles.includes(role));
  }
}

@Injectable()
@UseGuards(RolesGuard)
class AccountTools {
  readonly deletedBy: unknown[] = [];

  @Tool({ name: 'whoami', description: 'Who is calling' })
  whoami(@Ctx() ctx?: ToolExecuteContext): string {
    return (ctx!.caller as User).id;
  }

  @Tool({ name: 'delete_everything', description: 'Deletes everything' })
  @Roles('admin')
  deleteEverything(@Ctx() ctx?: ToolExecuteContext): string {
    this.deletedBy.push(ctx!.caller);
    return 'deleted';
  }
}

@Controller('mcp')
class SecuredMcpController {
  private readonly mcp;

  constructor(registry: ToolRegistry) {
    this.mcp = mcpHandlerForRegistry(registry, {
      name: 'accounts',
      version: '1.0.0',
      // Stands in for the app's auth (a Passport strategy would set req.user).
      caller: (_auth, req) => USERS[/^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''],
    });
  }

  @All()
  handle(@Req() req: IncomingMessage & { body?: unknown }, @Res() res: ServerResponse): Promise<void> {
    return this.mcp(req, res, req.body);
  }
}

@Module({
  imports: [AgentToolsModule.forRoot()],
  controllers: [SecuredMcpController],
  providers: [AccountTools, RolesGuard],
})
class AppModule {}

describe('mcpHandlerForRegistry: identity reaches Nest guards, and guards hide tools', () => {
  it('refuses anonymous callers, lists each caller only what its guards allow, and runs calls as that caller', async () => {
    const app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const connect = async (token?: string) => {
      const client = new Client({ name: 'c', version: '0.0.1' });
      const headers = token ? { authorization: `Bearer ${token}` } : undefined;
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      return client;
    };
    try {
      await expect(connect()).rejects.toThrow(/401|Unauthorized/);
      const alice = await connect('alice');
      const root = await connect('root');
      expect((await alice.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
      expect((await root.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'delete_everything']);
      expect((await alice.callTool({ name: 'whoami', arguments: {} })).content).toEqual([
        { type: 'text', text: 'alice' },
      ]);
      await expect(alice.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow('Call tool not found');
      expect(await root.callTool({ name: 'delete_everything', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'deleted' }],
      });
      expect(app.get(AccountTools).deletedBy).toEqual([USERS.root]);
      await Promise.all([alice.close(), root.close()]);
    } finally {
      await app.close();
    }
  });

  it('ToolRegistry.addTools refuses a tool named like a local one, naming it', async () => {
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const registry = app.get(ToolRegistry);
      const remote: ToolDefinition = {
        schema: { type: 'function', function: { name: 'delete_everything', parameters: { type: 'object' } } },
        execute: async () => ({ response: 'remote ran' }),
      };
      let thrown: unknown;
      try {
        registry.addTools([remote]);
      } catch (error) {
        thrown = error;
      }
      expect(DuplicateToolNameError.isInstance(thrown)).toBe(true);
      expect((thrown as DuplicateToolNameError).toolName).toBe('delete_everything');
      expect(registry.getTools().map((tool) => tool.schema.function.name)).toEqual(['whoami', 'delete_everything']);
      const extra = {
        ...remote,
        schema: { ...remote.schema, function: { ...remote.schema.function, name: 'docs_search' } },
      };
      registry.addTools([extra]);
      expect(registry.getTool('docs_search')).toBe(extra);
      expect(await registry.isVisible(extra, undefined)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
