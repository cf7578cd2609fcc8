import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { ContextIdFactory, DiscoveryService, ExternalContextCreator, ModuleRef, type ContextId } from '@nestjs/core';
import { DuplicateToolNameError, toolsFrom, type ClassType, type ToolDefinition } from '../index';
import { agentOwnTools, agentToolOf, getMetadataStorage, toolMethodsOf } from '../internal';
import { AGENT_TOOLS_OPTIONS, type AgentToolsModuleOptions } from './agent-tools.options';
import { discoverMcpProviders, discoverToolProviders, type ToolProvider } from './discover-tool-providers';
import type { AgentHost } from '../internal';
import { enhanceTool, type ToolEnhancerSupport, type ToolHost } from './enhance-tool';
import { hasGlobalEnhancers } from './global-enhancers';
import { logSchemaReport } from './log-schema-report';
import { guardsAllow } from './tool-visibility';
import { UnsupportedToolScopeError } from './unsupported-tool-scope.error';

type Entry = {
  readonly provider: ToolProvider;
  /** The singleton's tools; empty for a request-scoped or transient provider (see `resolveTools`). */
  readonly tools: ToolDefinition[];
};

/**
 * Every tool of every provider in the application, bound to the provider instances Nest created (so tools use
 * their injected services), each run through the guards, interceptors, pipes and exception filters that apply
 * to its method.
 *
 * Filled once, when the module initialises (or on first use, whichever comes first): definitions are built for
 * all providers together, request-scoped and transient ones included, so duplicate tool names across providers
 * are reported at bootstrap.
 *
 * @example
 * @Injectable()
 * export class AgentService {
 *   constructor(private readonly registry: ToolRegistry) {}
 *   async run(messages: ChatCompletionMessageParam[], caller: User) {
 *     return runAgentLoop({ client, body: { model, messages }, tools: await this.registry.resolveTools(), caller });
 *   }
 * }
 */
@Injectable()
export class ToolRegistry implements OnModuleInit {
  private entries?: Entry[];
  private all: ToolDefinition[] = [];
  private readonly byName = new Map<string, ToolDefinition>();
  /** Every tool name, request-scoped and transient providers' and added tools' included. */
  private readonly names = new Set<string>();
  /** Tools given to {@link addTools}, in the order they came. */
  private readonly added: ToolDefinition[] = [];
  private readonly hosts = new WeakMap<ToolDefinition, ToolHost>();
  /** The guard hosts of resource and prompt methods, one per instance and method, so each check is built once. */
  private readonly memberHosts = new WeakMap<object, Map<string, ToolHost>>();
  private mcpProviders?: readonly object[];
  private perContext = new WeakMap<ContextId, Promise<ToolDefinition[]>>();
  private readonly support: ToolEnhancerSupport;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    contextCreator: ExternalContextCreator,
    @Inject(AGENT_TOOLS_OPTIONS) private readonly options: AgentToolsModuleOptions,
  ) {
    let globals: boolean | undefined;
    this.support = { contextCreator, hasGlobalEnhancers: () => (globals ??= hasGlobalEnhancers(contextCreator)) };
  }

  onModuleInit(): void {
    this.load();
  }

  /**
   * The tools of singleton providers, in discovery order. The same array on every call: pass it to
   * `runAgentLoop` as is. Request-scoped and transient providers are not in it: use {@link resolveTools}.
   */
  getTools(): ToolDefinition[] {
    this.load();
    return this.all;
  }

  /** The tools of one singleton provider class (instances of subclasses included). */
  getToolsOf(provider: Type<unknown>): ToolDefinition[] {
    return this.load().flatMap((entry) => (entry.provider.instance instanceof provider ? entry.tools : []));
  }

  /** The singleton tool the model knows by `name`. */
  getTool(name: string): ToolDefinition | undefined {
    this.load();
    return this.byName.get(name);
  }

  /**
   * Add tools that no provider declares (a remote MCP server's, from `mcpTools`), after the discovered ones:
   * `getTools()`, `resolveTools()` and an MCP handler serving the registry include them from now on. A name any
   * tool already has (a provider's of any scope, or one added before) is refused with `DuplicateToolNameError`
   * naming it, and nothing is added: a remote tool can never take a local tool's name.
   *
   * @example
   * registry.addTools(await mcpTools(docsClient, { prefix: 'docs_' }));
   */
  addTools(tools: readonly ToolDefinition[]): void {
    this.load();
    const incoming = new Set<string>();
    for (const tool of tools) {
      const name = tool.schema.function.name;
      if (this.names.has(name) || incoming.has(name)) throw new DuplicateToolNameError(name);
      incoming.add(name);
    }
    for (const tool of tools) {
      this.names.add(tool.schema.function.name);
      this.byName.set(tool.schema.function.name, tool);
      this.added.push(tool);
      this.all.push(tool);
    }
    // Tool lists resolved before now lack the new tools.
    this.perContext = new WeakMap();
  }

  /**
   * Whether the guards that apply to `tool`'s method (its class's, its own and global ones) would let `caller`
   * call it, asked without calling it. An MCP server of the registry (`mcpHandlerForRegistry`) shows each caller
   * only these tools in `tools/list`. The guards get the `'agent-tool'` context of a call with no params yet
   * (`getArgByIndex(0)` is `undefined`; a guard that needs them should allow the listing and decide on the call)
   * and a `ToolExecuteContext` carrying `caller`. A guard returning false or throwing hides the tool. A tool
   * without guards, or one added with {@link addTools}, is visible.
   */
  isVisible(tool: ToolDefinition, caller: unknown): Promise<boolean> {
    const host = this.hosts.get(tool);
    return host ? guardsAllow(tool.schema.function.name, host, this.support, caller) : Promise.resolve(true);
  }

  /**
   * The singleton providers (and controllers) whose class has `@Resource` or `@Prompt` methods, in discovery order:
   * what an MCP server of the registry (`mcpHandlerForRegistry`) serves as resources and prompts.
   */
  getMcpProviders(): readonly object[] {
    return (this.mcpProviders ??= discoverMcpProviders(this.discovery));
  }

  /**
   * Whether the guards that apply to the `@Resource` or `@Prompt` method `methodName` of `instance` (its class's,
   * its own and global ones) let `caller` use it: asked for each listing (`params` undefined) and before each read
   * or get (`params`: the template's variables or the prompt's arguments), as {@link isVisible} asks for tools.
   * The guards get the `'agent-tool'` context, `name` being the resource's or prompt's. A guard returning false or
   * throwing hides it.
   */
  allowsMember(
    instance: object,
    methodName: string,
    name: string,
    caller: unknown,
    params?: unknown,
  ): Promise<boolean> {
    let hosts = this.memberHosts.get(instance);
    if (!hosts) this.memberHosts.set(instance, (hosts = new Map<string, ToolHost>()));
    let host = hosts.get(methodName);
    if (!host) hosts.set(methodName, (host = { instance, method: { name, methodName, parameters: [] } }));
    return guardsAllow(name, host, this.support, caller, params);
  }

  /**
   * Every tool, in discovery order, with request-scoped and transient providers (and their dependency trees)
   * resolved in the Nest context `contextId`: a fresh one when none is given, so each run gets its own
   * instances; `ContextIdFactory.getByRequest(request)` for the context of the HTTP request the run serves.
   * Singleton tools are the same definitions `getTools()` returns. The same context gives the same array.
   *
   * Rejects with `UnsupportedToolScopeError` (naming the provider) when a provider cannot be resolved.
   *
   * @example
   * const contextId = ContextIdFactory.getByRequest(request);
   * const tools = await registry.resolveTools(contextId);
   */
  resolveTools(contextId: ContextId = ContextIdFactory.create()): Promise<ToolDefinition[]> {
    const entries = this.load();
    if (entries.every((entry) => entry.provider.instance)) return Promise.resolve(this.all);
    let tools = this.perContext.get(contextId);
    if (!tools) {
      tools = Promise.all(
        entries.map(async (entry) => (entry.provider.instance ? entry.tools : this.resolveEntry(entry, contextId))),
      ).then((lists) => [...lists.flat(), ...this.added]);
      this.perContext.set(contextId, tools);
    }
    return tools;
  }

  private async resolveEntry({ provider }: Entry, contextId: ContextId): Promise<ToolDefinition[]> {
    let instance: unknown;
    try {
      instance = await this.moduleRef.resolve<unknown>(provider.token, contextId, { strict: false });
    } catch (error) {
      throw new UnsupportedToolScopeError([provider.label], { cause: error });
    }
    // A factory may return anything; its tools were checked at bootstrap on the class its token names.
    if (!(instance instanceof provider.type)) {
      const got =
        typeof instance === 'object' && instance !== null ? `an instance of ${instance.constructor.name}` : instance;
      throw new UnsupportedToolScopeError([provider.label], {
        cause: new TypeError(`its factory returned ${String(got)}, not an instance of ${provider.type.name}`),
      });
    }
    return this.bind(instance, contextId, provider.id);
  }

  private bind(instance: object, contextId?: ContextId, inquirerId?: string): ToolDefinition[] {
    // Paired by tool name, which `toolsFrom` keeps unique per class, not by position in two lists.
    const methods = new Map(toolMethodsOf(instance.constructor as ClassType).map((method) => [method.name, method]));
    // An agent's own methods are its tools, not the application's: bound and wrapped here, then built into it.
    const own = isAgent(instance.constructor as ClassType);
    return (own ? agentOwnTools(instance, this.defaults()) : toolsFrom([instance], this.defaults())).map(
      (definition) => {
        const method = methods.get(definition.schema.function.name);
        if (!method) throw new TypeError(`no @Tool method for the tool "${definition.schema.function.name}"`);
        const host: ToolHost = { instance, method, contextId, inquirerId };
        const tool = enhanceTool(definition, host, this.support);
        this.hosts.set(tool, host);
        return tool;
      },
    );
  }

  /**
   * The `@Agent` providers, each one tool: its tool classes' tools are those the registry bound to Nest's instances
   * (their injected services and enhancers included), its own methods bound to its instance. Singletons only.
   */
  private agentEntries(agents: ToolProvider[], entries: readonly Entry[]): Entry[] {
    const scoped = agents.filter((agent) => !agent.instance).map((agent) => agent.label);
    if (scoped.length) throw new UnsupportedToolScopeError(scoped);
    const instanceOf = (type: ClassType) => agents.find((agent) => agent.type === type)?.instance;
    const host: AgentHost = {
      toolsOf: (type) => {
        const found = entries.filter((entry) => entry.provider.type === type);
        return found.length ? found.flatMap((entry) => entry.tools) : undefined;
      },
      ownOf: (type) => {
        const instance = instanceOf(type);
        return instance && toolMethodsOf(type).length ? this.bind(instance) : [];
      },
    };
    return agents.map((provider) => ({ provider, tools: [agentToolOf(provider.type, host)!] }));
  }

  private defaults(): Omit<AgentToolsModuleOptions, 'global' | 'schemaReport'> {
    const { global: _global, schemaReport: _schemaReport, ...defaults } = this.options;
    return defaults;
  }

  private load(): Entry[] {
    if (this.entries) return this.entries;
    const discovered = discoverToolProviders(this.discovery);
    const providers = discovered.filter((provider) => !isAgent(provider.type));
    // Checked together, so problems and duplicate names across providers surface at bootstrap. A request-scoped
    // or transient provider has no instance yet: its definitions are checked on a bare object of its class.
    const checked = toolsFrom(
      providers.map((provider) => provider.instance ?? (Object.create(provider.type.prototype as object) as object)),
      this.defaults(),
    );
    for (const tool of checked) this.names.add(tool.schema.function.name);
    logSchemaReport(
      providers.map((provider) => provider.type),
      this.options,
    );
    const entries = providers.map((provider): Entry => ({
      provider,
      tools: provider.instance ? this.bind(provider.instance) : [],
    }));
    entries.push(
      ...this.agentEntries(
        discovered.filter((provider) => isAgent(provider.type)),
        entries,
      ),
    );
    this.all = entries.flatMap((entry) => entry.tools);
    for (const tool of this.all) this.byName.set(tool.schema.function.name, tool);
    this.entries = entries;
    return entries;
  }
}

function isAgent(type: ClassType): boolean {
  return getMetadataStorage().getAgent(type) !== undefined;
}
