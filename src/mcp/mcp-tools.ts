import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition, ToolExecuteResult } from '../index';
import { capText } from './cap-text';
import { contentToText } from './content-to-text';
import { createRemoteArgsChecker, type RemoteArgsChecker } from './remote-args-check';
import { uniqueToolName } from './tool-names';

/** Options of {@link mcpTools}. */
export type McpToolsOptions = {
  /** Put before every remote name (`'docs_'` → `docs_search`), to keep several servers' tools apart. */
  prefix?: string;
  /** Only these remote tool names. */
  include?: readonly string[];
  /** Not these remote tool names. */
  exclude?: readonly string[];
  /** `timeoutMs` of every tool (the loop's per-tool timeout; it also aborts the MCP request). */
  timeoutMs?: number;
  /** Cap each result's text at about this many characters, keeping its head and tail. Default 100,000. */
  maxResponseChars?: number;
};

/** The client calls `mcpTools` needs: a connected SDK `Client`, or anything with the same two methods. */
export type McpToolsClient = Pick<Client, 'listTools' | 'callTool'>;

/** Thrown inside a remote tool's `execute` (and answered by `runTool` as `Tool error: …`) when the server says the call failed. */
export class McpToolCallError extends Error {
  static {
    Object.defineProperty(this, 'name', { value: 'McpToolCallError' });
  }

  constructor(message: string) {
    super(message);
    this.name = 'McpToolCallError';
  }
}

const DEFAULT_MAX_RESPONSE_CHARS = 100_000;

/**
 * A connected MCP client's tools as `ToolDefinition`s, so `runAgentLoop` runs remote and local tools alike.
 *
 * - names: `prefix + remote name`, made valid for every model API (`^[a-zA-Z0-9_-]{1,64}$`) and unique;
 * - `parseParams` checks the arguments against the remote JSON Schema (Ajv) before anything is sent, and a
 *   bad call gets the same `Invalid arguments for tool "<name>":` + `path: message` lines as a local tool;
 * - `execute` is `client.callTool` with the run's abort signal; text content is joined, other content
 *   described in a line, and the text capped;
 * - a result with `isError`, a protocol error or a broken transport is thrown inside `execute`, so `runTool`
 *   answers it like a local tool's throw (`Tool error: <masked first line>`); nothing reaches the caller as an
 *   exception.
 *
 * The list is read once (all pages); call again after the server announces `tools/list_changed`.
 *
 * @example
 * const client = new Client({ name: 'my-agent', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * const tools = [...toolsFrom(new WeatherTools(api)), ...(await mcpTools(client, { prefix: 'fs_' }))];
 */
export async function mcpTools(client: McpToolsClient, options: McpToolsOptions = {}): Promise<ToolDefinition[]> {
  const remote = await listAllTools(client);
  const include = options.include && new Set(options.include);
  const exclude = new Set(options.exclude ?? []);
  const taken = new Set<string>();
  const checker = createRemoteArgsChecker();
  return remote
    .filter((tool) => (!include || include.has(tool.name)) && !exclude.has(tool.name))
    .map((tool) => remoteTool(client, tool, uniqueToolName(options.prefix ?? '', tool.name, taken), checker, options));
}

async function listAllTools(client: McpToolsClient): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function remoteTool(
  client: McpToolsClient,
  tool: McpTool,
  name: string,
  checker: RemoteArgsChecker,
  options: McpToolsOptions,
): ToolDefinition<Record<string, unknown>> {
  const maxChars = options.maxResponseChars ?? DEFAULT_MAX_RESPONSE_CHARS;
  // `$schema` stays out of what the model sees; some providers refuse keywords they do not know.
  const { $schema: _dialect, ...parameters } = tool.inputSchema;
  const description = tool.description ?? tool.title ?? tool.annotations?.title;
  return {
    schema: {
      type: 'function',
      function: { name, ...(description !== undefined && { description }), parameters },
    },
    parseParams: checker.parserFor(name, tool.inputSchema),
    execute: async ({ params, signal }): Promise<ToolExecuteResult> => {
      const result = await client.callTool({ name: tool.name, arguments: params }, undefined, {
        signal,
        ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
      });
      const content = Array.isArray(result.content) ? result.content : undefined;
      const text = contentToText(content, result.structuredContent ?? result.toolResult);
      // An agentcall server already said `Tool error: `; runTool says it again for every throw.
      if (result.isError === true)
        throw new McpToolCallError(text.replace(/^Tool error: /, '') || `${tool.name} failed`);
      return { response: capText(text, maxChars) };
    },
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  };
}
