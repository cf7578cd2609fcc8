import type { LLMClient } from '../../llm/client';
import type { Wire } from '../../llm/wires/wire';
import type { ToolApprovalContext, ToolDefinition, ToolExecuteContext, ToolParseResult } from '../../toolCall/type';
import type { RunBudget } from '../state/budget-types';
import type { OutputFormat } from '../state/output-types';

/** What an agent is, but for how its input and output are read (`defineAgent` takes these as they are). */
export type AgentRunOptions<I> = {
  /** The tool name the parent's model sees (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  /** What the parent's model reads to decide when to call the agent. */
  description: string;
  /** The agent's system message, or a function of the validated input that makes it. */
  instructions: string | ((input: I, ctx: ToolExecuteContext<I>) => string | Promise<string>);
  /** The agent's own tools (never its parent's), or a function that gives them when the agent starts. */
  tools: ToolDefinition[] | ((ctx: ToolExecuteContext<I>) => ToolDefinition[] | Promise<ToolDefinition[]>);
  /** The agent's own client; default the parent's. */
  client?: LLMClient;
  /** The agent's own model; default the model the parent is on. */
  model?: string;
  /** The agent's own wire; default the parent's (or `'auto'` with its own client). */
  wire?: Wire;
  /** A budget of the agent's own; its spend counts toward every ancestor's budget too. */
  budget?: RunBudget;
  /** Most model requests of one run of the agent (default 20). */
  maxRunAgentTimes?: number;
  /** Ask a person before the agent starts, as for any tool. */
  needsApproval?: boolean | ((ctx: ToolApprovalContext<I>) => boolean | Promise<boolean>);
  /** Keep the agent out of the parent's requests until `search_tools` finds it. */
  deferred?: boolean;
};

/**
 * An agent as the agents room runs it, its input and output already read (the public `defineAgent` reads a DTO
 * class or a Standard Schema into these).
 *
 * @internal
 */
export type AgentToolSpec<I> = AgentRunOptions<I> & {
  /** The JSON Schema of the input, as the parent's model sees it. */
  parameters: Record<string, unknown>;
  /** Validates the parent model's arguments: failures are the usual `path: message` lines, and no child starts. */
  parseParams: (rawArgs: string) => ToolParseResult<I>;
  /** The child's one `user` message: the `task` string for the default input, else the input as JSON. */
  userMessage: (input: I) => string;
  output?: OutputFormat;
};
