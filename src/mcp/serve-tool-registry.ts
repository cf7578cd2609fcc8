import type { ToolDefinition } from '../index';
import type { ServedMembers } from './create-mcp-server';
import { serveMcpHttp, type McpHttpHandler } from './create-mcp-http-handler';
import type { McpHttpOptions, McpToolVisibility } from './mcp-server-options';
import { memberMethodsOf } from './member-methods';
import { promptsFrom, type McpPromptDefinition } from './prompts-from';
import { resourcesFrom, type McpResourceDefinition } from './resources-from';

/**
 * What the handler needs from the NestJS `ToolRegistry` (`agentcall/nestjs`): its tools, and who may see them; its
 * providers with `@Resource` and `@Prompt` methods, and who may use those.
 */
export type ToolRegistryLike = {
  getTools(): readonly ToolDefinition[];
  /** Whether `caller` may see `tool` (the Nest registry asks the guards on the tool's method). */
  isVisible?(tool: ToolDefinition, caller: unknown): boolean | Promise<boolean>;
  /** The instances whose `@Resource` and `@Prompt` methods are served (the Nest registry's singleton providers). */
  getMcpProviders?(): readonly object[];
  /**
   * Whether `caller` may use the method `methodName` of `instance`, a resource or prompt called `name`, with
   * `params` (none for a listing; the template's variables or the prompt's arguments before a read or get). The
   * Nest registry asks the guards on the method.
   */
  allowsMember?(
    instance: object,
    methodName: string,
    name: string,
    caller: unknown,
    params?: unknown,
  ): boolean | Promise<boolean>;
};

/**
 * A Streamable HTTP handler serving a NestJS `ToolRegistry`'s tools: every discovered `@Tool` provider, read
 * when each session starts (so tools discovered at module init are there). It takes the options of
 * `createMcpHttpHandler`: the same Host/Origin checks, identity (`caller`, 401 without one unless
 * `allowAnonymous`), body and session caps. Each call runs through the tool's guards with the request's caller
 * as `ctx.caller`, and `tools/list` leaves out the tools whose guards would refuse that caller (with
 * `options.visible` as well, when given: a tool is shown when both say yes).
 *
 * The `@Resource` and `@Prompt` methods of the registry's singleton providers are served too (after
 * `options.resources` / `options.prompts`), guarded like tools: the method's guards see the caller (and the
 * template's variables or the prompt's arguments as params) before each read or get, and the lists leave out what
 * they refuse; a refused URI or name is answered as unknown.
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
  let members: ServedMembers | undefined;
  // Read on first use: the registry discovers its providers when the application starts, after this handler is made.
  const membersOf = (): ServedMembers => (members ??= registryMembers(registry, options));
  return serveMcpHttp(
    () => registry.getTools(),
    { ...options, visible: visibilityOf(registry, options.visible) },
    membersOf,
  );
}

/** The registry's resources and prompts after those of `options`, each of a provider guarded by its method. */
function registryMembers(registry: ToolRegistryLike, options: McpHttpOptions): ServedMembers {
  const owners = new Map<McpResourceDefinition | McpPromptDefinition, { instance: object; methodName: string }>();
  const resources = [...(options.resources ?? [])];
  const prompts = [...(options.prompts ?? [])];
  for (const instance of registry.getMcpProviders?.() ?? []) {
    // `resourcesFrom` and `promptsFrom` build one definition per record, in the order `memberMethodsOf` gives them.
    const resourceRecords = memberMethodsOf(instance, (storage, cls) => storage.getResources(cls));
    resourcesFrom(instance).forEach((resource, i) => {
      owners.set(resource, { instance, methodName: resourceRecords[i].record.methodName });
      resources.push(resource);
    });
    const promptRecords = memberMethodsOf(instance, (storage, cls) => storage.getPrompts(cls));
    promptsFrom(instance).forEach((prompt, i) => {
      owners.set(prompt, { instance, methodName: promptRecords[i].record.methodName });
      prompts.push(prompt);
    });
  }
  const check = registry.allowsMember?.bind(registry);
  if (!check) return { resources, prompts };
  return {
    resources,
    prompts,
    allows: (member, caller, params) => {
      const owner = owners.get(member);
      return owner ? check(owner.instance, owner.methodName, member.name, caller, params) : true;
    },
  };
}

function visibilityOf(registry: ToolRegistryLike, own: McpToolVisibility | undefined): McpToolVisibility | undefined {
  const guards = registry.isVisible?.bind(registry);
  if (!guards) return own;
  if (!own) return guards;
  return async (tool, caller) => (await own(tool, caller)) && (await guards(tool, caller));
}
