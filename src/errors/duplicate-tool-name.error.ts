import { AgentcallError } from './agentcall.error';

/**
 * Two tools of one set share a name, so one of them could never be called and a call meant for one could reach
 * the other (a remote MCP tool taking a local tool's name). `runAgentLoop` ends with it as `error`
 * (`stopReason: 'error'`) before any request; the Nest `ToolRegistry` throws it when tools are added.
 * Rename a tool, or give remote tools a `prefix`.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools: [...local, ...(await mcpTools(client))] });
 * if (DuplicateToolNameError.isInstance(result.error)) console.error(result.error.toolName);
 */
export class DuplicateToolNameError extends AgentcallError {
  static {
    this.defineName('DuplicateToolNameError');
  }

  /** The name two tools share. */
  readonly toolName: string;

  constructor(toolName: string) {
    super(
      `Two tools are named "${toolName.slice(0, 200)}": tool names must be unique (rename one, or give remote tools a prefix)`,
    );
    this.toolName = toolName;
  }
}
