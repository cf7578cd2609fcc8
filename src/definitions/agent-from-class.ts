import { taskInput } from '../agentCall/agents/agent-input';
import { agentTool } from '../agentCall/agents/agent-tool';
import { runCoreLoop } from '../agentCall/run-core-loop';
import { ToolDefinitionError } from '../errors/tool-definition.error';
import type { AgentMetadata } from '../metadata/agent-metadata';
import type { ClassType } from '../metadata/options';
import type { ToolDefinition } from '../toolCall/type';

/**
 * The tool of an `@Agent` class: its tools are those `toolsOf` gives for each class in `tools` (an agent class gives
 * its own agent's tool), then `own` (the class's `@Tool` methods, bound to the instance). `chain` holds the agent
 * classes being built above it: a class met again is a definition error naming the cycle.
 *
 * @internal
 */
export function agentFromClass(
  meta: AgentMetadata,
  own: readonly ToolDefinition[],
  toolsOf: (toolClass: ClassType, chain: readonly AgentMetadata[]) => ToolDefinition[],
  chain: readonly AgentMetadata[],
): ToolDefinition {
  const below = [...chain, meta];
  const tools: ToolDefinition[] = [];
  for (const toolClass of meta.tools ?? []) tools.push(...toolsOf(toolClass, below));
  tools.push(...own);
  return agentTool(
    {
      ...taskInput(meta.name),
      name: meta.name,
      description: meta.description,
      instructions: meta.instructions,
      tools,
    },
    runCoreLoop,
  );
}

/** The definition error of an `@Agent` class whose tools reach it again. */
export function agentCycleError(chain: readonly AgentMetadata[], again: AgentMetadata): ToolDefinitionError {
  const from = chain.indexOf(again);
  const names = [...chain.slice(from), again].map((agent) => agent.name);
  return new ToolDefinitionError([
    { className: String(again.name), message: `agents call each other in a cycle (${names.join(' → ')})` },
  ]);
}
