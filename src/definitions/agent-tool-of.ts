import { ToolDefinitionError, type ToolDefinitionProblem } from '../errors/tool-definition.error';
import { classOf } from '../metadata/class-chain';
import type { AgentMetadata } from '../metadata/agent-metadata';
import { getMetadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../metadata/options';
import type { ToolDefinition } from '../toolCall/type';
import { agentCycleError, agentFromClass } from './agent-from-class';
import { bindTool, type ToolsFromOptions } from './bind-tool';
import { getClassTools } from './get-class-tools';
import { resolveProfile } from './profiles/schema-profile';

/** Where an `@Agent` class's tools come from when a container (Nest) made the instances. */
export type AgentHost = {
  /** The tools of the class `toolClass` as the container binds them; none when it made no such instance. */
  toolsOf(toolClass: ClassType): ToolDefinition[] | undefined;
  /** The agent class's own `@Tool` methods, bound to the container's instance of it. */
  ownOf(agentClass: ClassType): ToolDefinition[];
};

/**
 * The tool of the `@Agent` class `agentClass` with its tools from `host` (each class in its `tools` as the container
 * made it, an agent class among them built the same way), or none when the class is no agent. A tool class the
 * container did not make, and agent classes whose tools reach themselves, are a {@link ToolDefinitionError}.
 *
 * @internal
 */
export function agentToolOf(agentClass: ClassType, host: AgentHost): ToolDefinition | undefined {
  const meta = getMetadataStorage().getAgent(agentClass);
  return meta && build(meta, agentClass, host, []);
}

function build(meta: AgentMetadata, agentClass: ClassType, host: AgentHost, chain: readonly AgentMetadata[]) {
  const toolsOf = (toolClass: ClassType, below: readonly AgentMetadata[]): ToolDefinition[] => {
    const inner = getMetadataStorage().getAgent(toolClass);
    if (inner && below.includes(inner)) throw agentCycleError(below, inner);
    if (inner) return [build(inner, toolClass, host, below)];
    const tools = host.toolsOf(toolClass);
    if (tools) return tools;
    throw new ToolDefinitionError([
      { className: agentClass.name, message: `its tool class ${toolClass.name} is not a provider of the application` },
    ]);
  };
  return agentFromClass(meta, host.ownOf(agentClass), toolsOf, chain);
}

/**
 * The `@Tool` methods of an `@Agent` instance as tools of their own (what the agent runs with, not its parent), bound
 * to it: a container binds and wraps them before the agent is built. Problems are a {@link ToolDefinitionError}.
 *
 * @internal
 */
export function agentOwnTools(instance: object, defaults: ToolsFromOptions = {}): ToolDefinition[] {
  const problems: ToolDefinitionProblem[] = [];
  const tools = getClassTools(classOf(instance)).tools.map((tool) => {
    problems.push(
      ...tool.problems,
      ...tool.schemaFor(resolveProfile(defaults.profile, tool.strict, defaults.strict)).problems,
    );
    return bindTool(tool, instance, defaults);
  });
  if (problems.length) throw new ToolDefinitionError(problems);
  return tools;
}
