import type { AnyToolDefinition } from '../../toolCall/type';

/** Where an agent's tool keeps what cycle checks read: a symbol key, so no other tool can have it by chance. */
const AGENT = Symbol('agentcall.agent');

/** What an agent's tool carries for cycle checks: its name and its tools when they are a list. */
export type AgentMark = { name: string; tools?: readonly AnyToolDefinition[] };

/** Mark `tool` as the agent `mark` describes (non-enumerable: copies and JSON never carry it). */
export function markAgent<T extends AnyToolDefinition>(tool: T, mark: AgentMark): T {
  Object.defineProperty(tool, AGENT, { value: mark, enumerable: false });
  return tool;
}

/** The mark of an agent's tool; none for any other tool. */
export function agentMark(tool: AnyToolDefinition | undefined): AgentMark | undefined {
  return tool === null || typeof tool !== 'object' ? undefined : (tool as { [AGENT]?: AgentMark })[AGENT];
}

/** Whether `tool` is an agent's (`defineAgent`). */
export function isAgentTool(tool: AnyToolDefinition): boolean {
  return agentMark(tool) !== undefined;
}
