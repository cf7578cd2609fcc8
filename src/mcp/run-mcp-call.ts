import type { CallToolResult, RequestId } from '@modelcontextprotocol/server';
import { runTool, type ToolDefinition, type ToolExecuteResult } from '../index';
import { capText } from './cap-text';

/** What one `tools/call` needs. */
export type McpCallInput = {
  tool: ToolDefinition;
  /** The JSON-RPC request id, to give the call an id tools can log. */
  requestId: RequestId;
  args: Record<string, unknown> | undefined;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or the connection closes. */
  signal: AbortSignal;
  /** Who sent the request: the tool's `ctx.caller`. */
  caller?: unknown;
  defaultTimeoutMs?: number;
  maxResponseChars?: number;
};

/**
 * Run one MCP `tools/call` through `runTool`, so a served tool gets exactly what the loop gives it: validation,
 * timeouts, the abort signal and masked error text. Whatever stops the tool short of returning (invalid
 * arguments, a throw, a timeout, a cancellation) is `isError: true`, with the text a model would have read.
 *
 * @internal
 */
export async function runMcpCall(input: McpCallInput): Promise<CallToolResult> {
  const { tool } = input;
  // runTool answers every failure with text; this flag tells them apart from a result without matching on it.
  let returned = false;
  const observed: ToolDefinition = {
    ...tool,
    execute: async (ctx): Promise<ToolExecuteResult> => {
      const result = await tool.execute(ctx);
      returned = true;
      return result;
    },
  };
  const name = tool.schema.function.name;
  const result = await runTool({
    call: {
      id: `mcp_${String(input.requestId)}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(input.args ?? {}) },
    },
    messages: [],
    tools: [observed],
    signal: input.signal,
    caller: input.caller,
    defaultTimeoutMs: input.defaultTimeoutMs,
  });
  const text = capText(result.response, input.maxResponseChars);
  return { content: [{ type: 'text', text }], ...(!returned && { isError: true }) };
}
