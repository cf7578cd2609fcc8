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
  type INestApplication,
} from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { Param, Prompt, Resource, Tool, type ToolExecuteContext } from '../../src';
import { mcpHandlerForRegistry, resourcesFrom } from '../../src/mcp';
import { AGENT_TOOL_CONTEXT, AgentToolsModule, ToolRegistry, type AgentToolContextType } from '../../src/nestjs';

type User = { id: string; roles: string[]; tenant: string };
const USERS: Record<string, User> = {
  alice: { id: 'alice', roles: [], tenant: 'acme' },
  root: { id: 'root', roles: ['admin'], tenant: 'ops' },
};

const Roles = (...roles: string[]) => SetMetadata('roles', roles);
const OwnTenant = () => SetMetadata('own-tenant', true);

/** Roles from the handler's metadata; a method marked own-tenant also needs `params.tenant` to be the caller's. */
@Injectable()
class AccessGuard implements CanActivate {
  /** The params of each check of an own-tenant method. */
  readonly seen: unknown[] = [];

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return true;
    const { caller, params } = context.getArgByIndex<ToolExecuteContext>(1);
    const user = caller as User;
    const roles = this.reflector.get<string[] | undefined>('roles', context.getHandler());
    if (roles && !roles.some((role) => user.roles.includes(role))) return false;
    if (this.reflector.get<boolean | undefined>('own-tenant', context.getHandler())) {
      this.seen.push(params);
      // A listing has no params yet: it shows the template, the read decides.
      return params === undefined || (params as { tenant?: string }).tenant === user.tenant;
    }
    return true;
  }
}

class ReportArgs {
  @Param({ description: 'Quarter' })
  @IsString()
  quarter!: string;
}

@Injectable()
@UseGuards(AccessGuard)
class CompanyDocs {
  readonly read: string[] = [];

  @Resource({ uri: 'docs://handbook', description: 'The handbook' })
  handbook(): string {
    this.read.push('handbook');
    return 'Be kind.';
  }

  @Resource({ uri: 'docs://salaries', description: 'What everyone earns' })
  @Roles('admin')
  salaries(): string {
    this.read.push('salaries');
    return 'a lot';
  }

  @Resource({ uriTemplate: 'tenants://{tenant}/notes', name: 'tenant_notes' })
  @OwnTenant()
  notes({ tenant }: { tenant: string }): string {
    this.read.push(`notes:${tenant}`);
    return `notes of ${tenant}`;
  }

  @Prompt({ name: 'greet', description: 'Greets' })
  greet(): string {
    return 'Say hello.';
  }

  @Prompt({ name: 'board_report', arguments: ReportArgs })
  @Roles('admin')
  boardReport({ quarter }: ReportArgs): string {
    return `Write the board report for ${quarter}.`;
  }

  @Tool({ description: 'Says hi' })
  hi(): string {
    return 'hi';
  }
}

/** Resources given in the options, beside the registry's: served to every caller, no guard of a provider on them. */
class PublicDocs {
  @Resource({ uri: 'docs://status' })
  status(): string {
    return 'all good';
  }
}

@Controller('mcp')
class McpController {
  private readonly mcp;

  constructor(registry: ToolRegistry) {
    this.mcp = mcpHandlerForRegistry(registry, {
      name: 'company',
      version: '1.0.0',
      caller: (_auth, req) => USERS[/^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''],
      resources: resourcesFrom(new PublicDocs()),
    });
  }

  @All()
  handle(@Req() req: IncomingMessage & { body?: unknown }, @Res() res: ServerResponse): Promise<void> {
    return this.mcp(req, res, req.body);
  }
}

@Module({
  imports: [AgentToolsModule.forRoot()],
  controllers: [McpController],
  providers: [CompanyDocs, AccessGuard],
})
class AppModule {}

describe('mcpHandlerForRegistry serves the @Resource and @Prompt methods of providers, guarded like tools', () => {
  let app: INestApplication;
  let url: URL;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  const connect = async (token: string, era: 'legacy' | 'modern' = 'legacy') => {
    const client = new Client(
      { name: 'c', version: '0.0.1' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    expect(client.getProtocolEra()).toBe(era);
    clients.push(client);
    return client;
  };

  it.each(['legacy', 'modern'] as const)('lists each caller (%s era) only what the guards allow', async (era) => {
    const alice = await connect('alice', era);
    const root = await connect('root', era);
    const uris = async (client: Client) => (await client.listResources()).resources.map((r) => r.uri);
    const prompts = async (client: Client) => (await client.listPrompts()).prompts.map((p) => p.name);
    expect(await uris(alice)).toEqual(['docs://status', 'docs://handbook']);
    expect(await uris(root)).toEqual(['docs://status', 'docs://handbook', 'docs://salaries']);
    expect((await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'tenants://{tenant}/notes',
    ]);
    expect(await prompts(alice)).toEqual(['greet']);
    expect(await prompts(root)).toEqual(['greet', 'board_report']);
  });

  it('a refused read or get is answered as unknown, and the method never runs', async () => {
    const alice = await connect('alice');
    const root = await connect('root');
    const docs = app.get(CompanyDocs);
    docs.read.length = 0;
    await expect(alice.readResource({ uri: 'docs://salaries' })).rejects.toThrow(/Resource not found/);
    await expect(alice.getPrompt({ name: 'board_report', arguments: { quarter: 'Q3' } })).rejects.toThrow(
      /Prompt not found/,
    );
    expect(docs.read).toEqual([]);
    expect((await root.readResource({ uri: 'docs://salaries' })).contents).toEqual([
      { uri: 'docs://salaries', mimeType: 'text/plain', text: 'a lot' },
    ]);
    expect((await root.getPrompt({ name: 'board_report', arguments: { quarter: 'Q3' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write the board report for Q3.' } },
    ]);
    expect(docs.read).toEqual(['salaries']);
  });

  it("the guards see a template's variables as params: a caller reads its own tenant's notes only", async () => {
    const alice = await connect('alice');
    const guard = app.get(AccessGuard);
    const docs = app.get(CompanyDocs);
    docs.read.length = 0;
    guard.seen.length = 0;
    expect((await alice.readResource({ uri: 'tenants://acme/notes' })).contents[0]).toMatchObject({
      text: 'notes of acme',
    });
    await expect(alice.readResource({ uri: 'tenants://ops/notes' })).rejects.toThrow(/Resource not found/);
    expect(docs.read).toEqual(['notes:acme']);
    expect(guard.seen).toEqual([{ tenant: 'acme' }, { tenant: 'ops' }]);
  });
});
