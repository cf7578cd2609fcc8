import { Inject, Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { getClassTools } from '../definitions/get-class-tools';
import { toolsFrom } from '../definitions/tools-from';
import type { ToolDefinition } from '../toolCall/type';
import { AGENT_TOOLS_OPTIONS, type AgentToolsModuleOptions } from './agent-tools.options';
import { discoverToolProviders } from './discover-tool-providers';
import { classOf } from '../metadata/class-chain';

type Entry = { instance: object; tools: ToolDefinition[] };

/**
 * Every tool of every provider in the application, bound to the provider instances Nest created (so tools
 * use their injected services).
 *
 * Filled once, when the module initialises (or on first use, whichever comes first): definitions are built
 * for all providers together, so duplicate tool names across providers are reported at bootstrap.
 *
 * @example
 * @Injectable()
 * export class AgentService {
 *   constructor(private readonly registry: ToolRegistry) {}
 *   run(messages: ChatCompletionMessageParam[]) {
 *     return runAgentLoop({ client, body: { model, messages }, tools: this.registry.getTools() });
 *   }
 * }
 */
@Injectable()
export class ToolRegistry implements OnModuleInit {
  private entries?: Entry[];
  private all: ToolDefinition[] = [];
  private readonly byName = new Map<string, ToolDefinition>();

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(AGENT_TOOLS_OPTIONS) private readonly options: AgentToolsModuleOptions,
  ) {}

  onModuleInit(): void {
    this.load();
  }

  /** Every tool, in discovery order. The same array on every call: pass it to `runAgentLoop` as is. */
  getTools(): ToolDefinition[] {
    this.load();
    return this.all;
  }

  /** The tools of one provider class (instances of subclasses included). */
  getToolsOf(provider: Type<unknown>): ToolDefinition[] {
    return this.load().flatMap((entry) => (entry.instance instanceof provider ? entry.tools : []));
  }

  /** The tool the model knows by `name`. */
  getTool(name: string): ToolDefinition | undefined {
    this.load();
    return this.byName.get(name);
  }

  private load(): Entry[] {
    if (this.entries) return this.entries;
    const instances = discoverToolProviders(this.discovery);
    const { global: _global, ...defaults } = this.options;
    const tools = toolsFrom(instances, defaults);
    // toolsFrom emits each instance's tools in order, one per tool of its class: slice the flat list back apart.
    const entries: Entry[] = [];
    let offset = 0;
    for (const instance of instances) {
      const count = getClassTools(classOf(instance)).tools.length;
      entries.push({ instance, tools: tools.slice(offset, offset + count) });
      offset += count;
    }
    this.all = tools;
    for (const tool of tools) this.byName.set(tool.schema.function.name, tool);
    this.entries = entries;
    return entries;
  }
}
