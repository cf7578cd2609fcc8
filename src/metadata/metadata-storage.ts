import type { AgentMetadata } from './agent-metadata';
import type { ParamMetadata, PropertyMetadata } from './param-metadata';
import type { ToolMetadata } from './tool-metadata';
import type { PromptMetadata, ResourceMetadata } from './mcp-member-metadata';
import type { ClassRef } from './options';

type ClassRecords = {
  tools: ToolMetadata[];
  params: ParamMetadata[];
  properties: PropertyMetadata[];
  resources: ResourceMetadata[];
  prompts: PromptMetadata[];
};

/**
 * Every record agentcall's decorators make, keyed by the class that declares the member.
 *
 * Lookups are per class, so records of one class never leak into another's build, and a WeakMap lets
 * classes created at run time (tests, synthesized argument classes) be collected.
 */
export class MetadataStorage {
  private readonly byClass = new WeakMap<ClassRef, ClassRecords>();
  private readonly agents = new WeakMap<ClassRef, AgentMetadata>();

  /** Record an `@Agent` class. */
  addAgent(record: AgentMetadata): void {
    this.agents.set(record.target, record);
  }

  /** The `@Agent` record of `target` itself, if it is an agent class. */
  getAgent(target: ClassRef): AgentMetadata | undefined {
    return this.agents.get(target);
  }

  /** Record a `@Tool` method. */
  addTool(record: ToolMetadata): void {
    this.recordsOf(record.target).tools.push(record);
  }

  /** Record a `@Param` or `@Ctx` method parameter. */
  addParam(record: ParamMetadata): void {
    this.recordsOf(record.target).params.push(record);
  }

  /** Record a `@Param` DTO property. */
  addProperty(record: PropertyMetadata): void {
    this.recordsOf(record.target).properties.push(record);
  }

  /** The `@Tool` records the class itself declares (not inherited ones), in declaration order. */
  getTools(target: ClassRef): readonly ToolMetadata[] {
    return this.byClass.get(target)?.tools ?? [];
  }

  /** The parameter records of one method declared by `target`, sorted by parameter index. */
  getParams(target: ClassRef, methodName: string): readonly ParamMetadata[] {
    const params = this.byClass.get(target)?.params ?? [];
    return params.filter((param) => param.methodName === methodName).sort((a, b) => a.index - b.index);
  }

  /** The `@Param` property records the class itself declares, in declaration order. */
  getProperties(target: ClassRef): readonly PropertyMetadata[] {
    return this.byClass.get(target)?.properties ?? [];
  }

  /** Record a `@Resource` method. */
  addResource(record: ResourceMetadata): void {
    this.recordsOf(record.target).resources.push(record);
  }

  /** Record a `@Prompt` method. */
  addPrompt(record: PromptMetadata): void {
    this.recordsOf(record.target).prompts.push(record);
  }

  /** The `@Resource` records the class itself declares, in declaration order. */
  getResources(target: ClassRef): readonly ResourceMetadata[] {
    return this.byClass.get(target)?.resources ?? [];
  }

  /** The `@Prompt` records the class itself declares, in declaration order. */
  getPrompts(target: ClassRef): readonly PromptMetadata[] {
    return this.byClass.get(target)?.prompts ?? [];
  }

  private recordsOf(target: ClassRef): ClassRecords {
    let records = this.byClass.get(target);
    if (!records) {
      records = { tools: [], params: [], properties: [], resources: [], prompts: [] };
      this.byClass.set(target, records);
    }
    return records;
  }
}

const STORAGE_KEY = Symbol.for('agentcall.metadata-storage');

/**
 * The one metadata storage, kept on `globalThis` so that two installed copies of agentcall share it.
 *
 * @example
 * getMetadataStorage().getTools(WeatherTools); // [{ target: WeatherTools, methodName: 'getWeather', name: 'getWeather', ... }]
 */
export function getMetadataStorage(): MetadataStorage {
  const holder = globalThis as { [STORAGE_KEY]?: MetadataStorage };
  return (holder[STORAGE_KEY] ??= new MetadataStorage());
}
