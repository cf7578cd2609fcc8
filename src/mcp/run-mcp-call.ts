import type { CallToolResult, ContentBlock, RequestId } from '@modelcontextprotocol/server';
import {
  runTool,
  type RunToolResult,
  type ToolDefinition,
  type ToolExecuteContext,
  type ToolExecuteResult,
} from '../index';
import { capText } from './cap-text';

/** The levels of a tool's `ctx.log`. */
type ToolLogLevel = Parameters<NonNullable<ToolExecuteContext['log']>>[0];

// What a tool's `ctx.progress(…)` reports, what a person answered it, and what it asks: parts of the public types.
type ToolProgress = Parameters<NonNullable<ToolExecuteContext['progress']>>[0];
export type ToolInputAnswer = NonNullable<ToolExecuteContext['answer']>;
export type ToolInteractive = NonNullable<ToolExecuteResult['interactive']>;

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
  /** Where the tool's `ctx.progress` reports go (a progress notification when the client asked for them). */
  onProgress?: (progress: ToolProgress) => void;
  /** Where the tool's `ctx.log` goes (a logging notification). */
  onLog?: (level: ToolLogLevel, data: unknown) => void;
  /** The tool's `ctx.answer`: what the client answered to what the tool asked on an earlier round. */
  answer?: ToolInputAnswer;
};

/**
 * Run one MCP `tools/call` through `runTool`, so a served tool gets exactly what the loop gives it: validation,
 * timeouts, the abort signal and masked error text. Whatever stops the tool short of returning (invalid
 * arguments, a throw, a timeout, a cancellation) is `isError: true`, with the text a model would have read.
 *
 * @internal
 */
export async function runMcpCall(input: McpCallInput): Promise<CallToolResult> {
  return (await runMcpCallAsking(input)).result;
}

/**
 * {@link runMcpCall}, also telling what the tool asked when it returned `interactive` (its text is in `result`).
 *
 * @internal
 */
export async function runMcpCallAsking(
  input: McpCallInput,
): Promise<{ result: CallToolResult; asked?: ToolInteractive }> {
  const { tool } = input;
  // runTool answers every failure with text; this flag tells them apart from a result without matching on it.
  let returned: ToolExecuteResult | undefined;
  const observed: ToolDefinition = {
    ...tool,
    execute: async (ctx): Promise<ToolExecuteResult> => {
      const result = await tool.execute(ctx);
      returned = result;
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
    onProgress: input.onProgress,
    onLog: input.onLog,
    ...(input.answer && { answer: input.answer }),
  });
  return callToolResultOf(
    result.outcome === 'ok' && returned ? { ...returned, outcome: 'ok', response: result.response } : result,
    input.maxResponseChars,
  );
}

/** What of a `runTool` result an MCP client gets: its text, and the content the tool returned with it. */
export type McpToolOutcome = Pick<
  RunToolResult,
  'response' | 'outcome' | 'content' | 'structuredContent' | 'interactive'
>;

/**
 * A tool's outcome as an MCP `CallToolResult`, whether it ran here or on a queue's worker: a call that did not return
 * (invalid arguments, a throw, a timeout, a cancellation) is `isError: true` with the text a model would have read;
 * one that returned gives its `content` (or its text) and `structuredContent`, and tells what it asked, if it did.
 *
 * @internal
 */
export function callToolResultOf(
  outcome: McpToolOutcome,
  maxResponseChars: number | undefined,
): { result: CallToolResult; asked?: ToolInteractive } {
  if (outcome.outcome !== 'ok')
    return {
      result: { content: [{ type: 'text', text: capText(outcome.response, maxResponseChars) }], isError: true },
    };
  const content: ContentBlock[] = Array.isArray(outcome.content)
    ? outcome.content
    : [{ type: 'text', text: capText(outcome.response, maxResponseChars) }];
  const structured = outcome.structuredContent;
  return {
    result: {
      content,
      ...(structured !== null && typeof structured === 'object' && { structuredContent: structured }),
    },
    ...(outcome.interactive !== undefined && { asked: outcome.interactive }),
  };
}
