import type { LLMClient } from '../../llm/client';
import type { Wire } from '../../llm/wire';
import type { ToolApprovalContext, ToolDefinition, ToolExecuteContext, ToolParseResult } from '../../toolCall/type';
import type { RunBudget } from '../budget-types';
import type { OutputFormat } from '../output-types';

/**
 * An agent as the agents room runs it, its input and output already read (the public `defineAgent` reads a DTO
 * class or a Standard Schema into these).
 *
 * @internal
 */
export type AgentToolSpec<I> = {
  name: string;
  description: string;
  /** The JSON Schema of the input, as the parent's model sees it. */
  parameters: Record<string, unknown>;
  /** Validates the parent model's arguments: failures are the usual `path: message` lines, and no child starts. */
  parseParams: (rawArgs: string) => ToolParseResult<I>;
  /** The child's one `user` message: the `task` string for the default input, else the input as JSON. */
  userMessage: (input: I) => string;
  instructions: string | ((input: I, ctx: ToolExecuteContext<I>) => string | Promise<string>);
  tools: ToolDefinition[] | ((ctx: ToolExecuteContext<I>) => ToolDefinition[] | Promise<ToolDefinition[]>);
  output?: OutputFormat;
  client?: LLMClient;
  model?: string;
  wire?: Wire;
  budget?: RunBudget;
  maxRunAgentTimes?: number;
  needsApproval?: boolean | ((ctx: ToolApprovalContext<I>) => boolean | Promise<boolean>);
  deferred?: boolean;
};
