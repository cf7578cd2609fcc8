import type { ContentBlock } from '@modelcontextprotocol/client';
import type { ToolDefinition, ToolExecuteResult } from '../index';
import { capText } from './cap-text';
import { contentToText } from './content-to-text';
import { listRemoteTools } from './list-remote-tools';
import type { McpSchemaError } from './mcp-schema-error';
import { remoteAsked, retryParams } from './remote-ask-back';
import { callRemoteTask, type McpTaskIds } from './remote-task-call';
import { remoteToolsClient, type McpToolsClient, type RemoteTool, type RemoteToolsClient } from './mcp-tools-client';
import { createRemoteArgsChecker, type RemoteArgsChecker } from './remote-args-check';
import { ToolNamer } from './tool-names';

export type { McpToolsClient, McpV1ToolsClient, McpV2ToolsClient } from './mcp-tools-client';

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
  /** Read at most this many `tools/list` pages. Default 50. */
  maxPages?: number;
  /**
   * Keep at most this many tools (after `include` / `exclude`). Default 128, what OpenAI accepts in a request; with
   * `deferred`, 1,000 (only the tools the model finds are sent).
   */
  maxTools?: number;
  /**
   * Defer every remote tool (`ToolDefinition.deferred`): none is sent to the model until it finds it with the
   * loop's `search_tools` (or calls it by name). For servers with more tools than a request should carry.
   */
  deferred?: boolean;
  /** Cut each description to this many characters. Default 2,000. */
  maxDescriptionChars?: number;
  /** A tool whose input schema is longer than this as JSON gets a `McpSchemaError`. Default 32,768. */
  maxSchemaChars?: number;
  /** A tool whose schema holds more `enum` values than this (all together) gets a `McpSchemaError`. Default 1,000. */
  maxEnumValues?: number;
  /** A tool whose schema names more properties than this (all objects together) gets a `McpSchemaError`. Default 1,000. */
  maxSchemaProperties?: number;
  /** A tool whose schema holds more patterns than this gets a `McpSchemaError`. Default 100. */
  maxSchemaPatterns?: number;
  /**
   * Told what the listing left out when anything was (tools past a bound, cut descriptions, refused schemas).
   * Default: a process warning (`process.emitWarning`, code `AGENTCALL_MCP_LISTING_CUT`) with the counts.
   */
  onListingCut?: (report: McpListingReport) => void;
  /**
   * Where the id of each remote task is kept under the call's `ctx.idempotencyKey` (a 2025-11-25 tool with
   * `execution.taskSupport` is called as a task, and a 2026-07-28 call may be answered with one; either is polled):
   * a run resumed after a crash polls the task it started instead of starting the work again. Give it a store every
   * worker reaches (Redis). A call whose task is kept is not cancelled when aborted, as the abort may be its run
   * moving to another worker. Default: none.
   */
  taskIds?: McpTaskIds;
};

/** What `mcpTools` left out of a remote listing (see `McpToolsOptions.onListingCut`). */
export type McpListingReport = {
  /** `tools/list` pages read. */
  readonly pagesRead: number;
  /** The server had more pages (or more tools) than the bounds let `mcpTools` read. */
  readonly unreadPages: boolean;
  /** Tools read past `maxTools` and dropped. */
  readonly droppedTools: number;
  /** Remote names of the tools whose description was cut to `maxDescriptionChars`. */
  readonly cutDescriptions: readonly string[];
  /** The tools returned whose schema is not used: every call of one is answered with its error's message. */
  readonly refusedSchemas: readonly McpSchemaError[];
};

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

const DEFAULTS = {
  maxResponseChars: 100_000,
  maxPages: 50,
  maxTools: 128,
  // OpenAI's 128 is per request; deferred tools are sent only once found (at most 10 a search), so a listing may
  // hold more. The bound still caps the memory and the search index a server can make a run build.
  maxDeferredTools: 1_000,
  maxDescriptionChars: 2_000,
  maxSchemaChars: 32_768,
  maxEnumValues: 1_000,
  maxSchemaProperties: 1_000,
  maxSchemaPatterns: 100,
} as const;

/** The parameters a tool whose remote schema is refused shows the model: it is answered without them anyway. */
const NO_PARAMETERS = { type: 'object', properties: {} } as const;

/**
 * A connected MCP client's tools as `ToolDefinition`s, so `runAgentLoop` runs remote and local tools alike.
 * The remote server is not trusted:
 *
 * - the listing is bounded (`maxPages`, `maxTools`, descriptions cut to `maxDescriptionChars`): past a bound it
 *   is cut, never refused, and `onListingCut` hears what was left out;
 * - names: `prefix + remote name`, made valid for every model API (`^[a-zA-Z0-9_-]{1,64}$`) and unique among
 *   the remote tools; putting them next to local tools with a name in common is refused by `runAgentLoop` with
 *   `DuplicateToolNameError`;
 * - `parseParams` checks the arguments against the remote JSON Schema (Ajv, patterns on a linear-time engine,
 *   `uniqueItems` by hashing) before anything is sent, and a bad call gets the same
 *   `Invalid arguments for tool "<name>":` + `path: message` lines as a local tool;
 * - a schema over a cap, recursive without end or not compilable makes the tool answer every call with a
 *   `McpSchemaError` (`Tool error: …`) without calling the server;
 * - `execute` is `client.callTool` with the run's abort signal; text content is joined, other content
 *   described in a line, and the text capped;
 * - a remote task is polled to its end (2025-11-25 `execution.taskSupport`; on 2026-07-28, with a server that
 *   announces the tasks extension, every call declares it and a `resultType: 'task'` answer is followed), its
 *   status messages reported as progress and an aborted call's task cancelled;
 * - a result with `isError`, a protocol error or a broken transport is thrown inside `execute`, so `runTool`
 *   answers it like a local tool's throw (`Tool error: <masked first line>`); nothing reaches the caller as an
 *   exception.
 *
 * The list is read once; call again after the server announces `tools/list_changed`.
 *
 * @example
 * const client = new Client({ name: 'my-agent', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * const tools = [...toolsFrom(new WeatherTools(api)), ...(await mcpTools(client, { prefix: 'fs_' }))];
 * // A server with hundreds of tools: the model finds the ones it needs with `search_tools`.
 * const github = await mcpTools(githubClient, { prefix: 'gh_', deferred: true });
 */
export async function mcpTools(connected: McpToolsClient, options: McpToolsOptions = {}): Promise<ToolDefinition[]> {
  const client = remoteToolsClient(connected);
  const include = options.include && new Set(options.include);
  const exclude = new Set(options.exclude ?? []);
  const read = await listRemoteTools(client, {
    maxPages: options.maxPages ?? DEFAULTS.maxPages,
    maxTools: options.maxTools ?? (options.deferred === true ? DEFAULTS.maxDeferredTools : DEFAULTS.maxTools),
    keep: (tool) => (!include || include.has(tool.name)) && !exclude.has(tool.name),
  });
  const checker = createRemoteArgsChecker({
    maxSchemaChars: options.maxSchemaChars ?? DEFAULTS.maxSchemaChars,
    maxEnumValues: options.maxEnumValues ?? DEFAULTS.maxEnumValues,
    maxProperties: options.maxSchemaProperties ?? DEFAULTS.maxSchemaProperties,
    maxPatterns: options.maxSchemaPatterns ?? DEFAULTS.maxSchemaPatterns,
  });
  const namer = new ToolNamer();
  const cutDescriptions: string[] = [];
  const refusedSchemas: McpSchemaError[] = [];
  const tools = read.tools.map((tool) => {
    const built = remoteTool(client, tool, namer.name(options.prefix ?? '', tool.name), checker, options);
    if (built.descriptionCut) cutDescriptions.push(tool.name);
    if (built.schemaError) refusedSchemas.push(built.schemaError);
    return built.definition;
  });
  const { tools: _read, ...listing } = read;
  const report: McpListingReport = { ...listing, cutDescriptions, refusedSchemas };
  if (report.unreadPages || report.droppedTools || cutDescriptions.length || refusedSchemas.length) {
    (options.onListingCut ?? warn)(report);
  }
  return tools;
}

function warn(report: McpListingReport): void {
  const parts = [
    report.unreadPages && `stopped after ${report.pagesRead} pages with more to read`,
    report.droppedTools > 0 && `${report.droppedTools} tools over maxTools dropped`,
    report.cutDescriptions.length > 0 && `${report.cutDescriptions.length} descriptions cut`,
    report.refusedSchemas.length > 0 && `${report.refusedSchemas.length} schemas refused`,
  ].filter(Boolean);
  process.emitWarning(`mcpTools: the remote listing was cut: ${parts.join(', ')}`, {
    code: 'AGENTCALL_MCP_LISTING_CUT',
  });
}

type BuiltTool = {
  definition: ToolDefinition<Record<string, unknown>>;
  descriptionCut: boolean;
  schemaError?: McpSchemaError;
};

function remoteTool(
  client: RemoteToolsClient,
  tool: RemoteTool,
  name: string,
  checker: RemoteArgsChecker,
  options: McpToolsOptions,
): BuiltTool {
  const maxChars = options.maxResponseChars ?? DEFAULTS.maxResponseChars;
  const maxDescription = options.maxDescriptionChars ?? DEFAULTS.maxDescriptionChars;
  // `$schema` stays out of what the model sees; some providers refuse keywords they do not know.
  const { $schema: _dialect, ...remoteParameters } = tool.inputSchema;
  const check = checker.checkFor(name, tool.inputSchema);
  const schemaError = check.error;
  const parameters = schemaError ? NO_PARAMETERS : remoteParameters;
  // A server that runs the tool as a task (and refuses a plain call when it must) is called as the task it is.
  const taskSupport = tool.execution?.taskSupport;
  const asTask = taskSupport === 'required' || taskSupport === 'optional';
  const remoteDescription = tool.description ?? tool.title ?? tool.annotations?.title;
  const descriptionCut = remoteDescription !== undefined && remoteDescription.length > maxDescription;
  const description = descriptionCut
    ? `${remoteDescription.slice(0, Math.max(0, maxDescription - 1))}…`
    : remoteDescription;
  const definition: ToolDefinition<Record<string, unknown>> = {
    schema: {
      type: 'function',
      function: { name, ...(description !== undefined && { description }), parameters },
    },
    parseParams: check.parse,
    execute: async ({ params, signal, progress, idempotencyKey, answer, resumeData }): Promise<ToolExecuteResult> => {
      if (schemaError) throw schemaError;
      const requestOptions = {
        signal,
        ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
        // The server's progress notifications reach the loop's `onToolProgress` (and a queue's events).
        ...(progress && { onprogress: progress }),
        // A 2026-07-28 server's question comes back as the result: the run pauses on it instead of a handler here.
        allowInputRequired: true,
      };
      // Run again with a person's answer: the retry the server asked for, on whichever process resumed the run.
      const callParams = { name: tool.name, arguments: params, ...retryParams(answer, resumeData) };
      const task = { params: callParams, options: requestOptions, signal, progress, key: idempotencyKey };
      const taskIds = options.taskIds;
      // On 2026-07-28 any tool may answer with a task (the listing no longer says which); a plain answer is used.
      const result = client.modernTaskRequest
        ? await callRemoteTask({ ...task, era: 'modern', request: client.modernTaskRequest, taskIds })
        : asTask && client.request
          ? await callRemoteTask({ ...task, era: 'legacy', request: client.request, taskIds })
          : await client.callTool(callParams, requestOptions);
      const asked = remoteAsked(result, tool.name, options.maxSchemaChars ?? DEFAULTS.maxSchemaChars);
      if (asked) return asked;
      const content = Array.isArray(result.content) ? (result.content as ContentBlock[]) : undefined;
      const text = contentToText(content, result.structuredContent ?? result.toolResult);
      // An agentcall server already said `Tool error: `; runTool says it again for every throw.
      if (result.isError === true)
        throw new McpToolCallError(text.replace(/^Tool error: /, '') || `${tool.name} failed`);
      return { response: capText(text, maxChars) };
    },
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.deferred === true && { deferred: true }),
    remote: true,
  };
  return { definition, descriptionCut, ...(schemaError && { schemaError }) };
}
