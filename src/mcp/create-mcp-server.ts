import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type AuthInfo,
  type ProgressToken,
  type ServerContext,
  type Tool as McpTool,
} from '@modelcontextprotocol/server';
import type { ToolDefinition, ToolExecuteContext } from '../index';
import { maskSecrets } from '../internal';
import type { McpHttpOptions, McpServerOptions, McpToolSource, McpToolVisibility } from './mcp-server-options';
import { callAskingBack, callerKey, createAskBack, type AskBack } from './serve-ask-back';
import {
  resourceAndPromptCapabilities,
  serveResourcesAndPrompts,
  type McpMemberAccess,
} from './serve-resources-and-prompts';
import type { McpPromptDefinition } from './prompts-from';
import type { McpResourceDefinition } from './resources-from';
import { runMcpCallAsking } from './run-mcp-call';
import { QueuedTasks } from './queued-tasks';
import { ServedTasks } from './served-tasks';
import { taskResultOf, type TaskBackend } from './task-backend';
import { serveTasks, taskCapabilities, taskCreated, taskRequested } from './serve-tasks';
import { startedTask, TaskServer } from './task-server';

// What a tool's `ctx.progress(…)` reports.
type ToolProgress = Parameters<NonNullable<ToolExecuteContext['progress']>>[0];

/** The longest part of a requested tool name an error repeats; the core cuts a made-up name the same way. */
const MAX_ECHOED_NAME_CHARS = 200;
/** Defaults of `options.tasks`. */
const DEFAULT_MAX_TASKS = 1_000;
const DEFAULT_MAX_TASK_TTL_MS = 60 * 60_000;

/** Who sent a request, from what the transport attached to it. */
export type CallerOf = (authInfo: AuthInfo | undefined) => unknown;

/**
 * An MCP server (SDK v2's `Server`) that lists each tool with its description and JSON Schema and runs each
 * `tools/call` through `runTool`: the same validation, timeouts, abort signal and masked error text as in
 * `runAgentLoop`. A failed call is a result with `isError: true` carrying that text (the model reads it and can
 * correct itself); an unknown tool name is a protocol error, as the MCP specification asks, repeating at most
 * 200 characters of the name. Cancelling a request aborts the tool's `signal`.
 *
 * The same server answers both protocol eras: a 2025-11-25 client that opens with `initialize`, and a
 * 2026-07-28 client that sends `server/discover` and a `_meta` envelope with every request.
 *
 * Tools get the transport's `authInfo` (what auth middleware put on `req.auth`) as `ctx.caller`; a `visible`
 * option hides tools from callers.
 *
 * Connect it to any transport: `serveStdio` and `createMcpHttpHandler` build one per connection or request;
 * the SDK's `InMemoryTransport` suits tests.
 *
 * @example
 * const server = createMcpServer(toolsFrom(new WeatherTools(api)), { name: 'weather', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(tools: McpToolSource, options: McpServerOptions): Server {
  return buildMcpServer(servedTools(tools), options, (authInfo) => authInfo);
}

/** The tools a server serves, each once, and how each is described, built once for every server made from them. */
export type ServedTools = {
  readonly byName: ReadonlyMap<string, ToolDefinition>;
  readonly described: ReadonlyMap<ToolDefinition, McpTool>;
  /** Some tool is served as a task (`@Tool({ task: true })`). */
  readonly hasTasks: boolean;
};

/**
 * Index `tools` by name (the first of a name wins, as in `runTool`) and describe each for `tools/list`.
 *
 * @internal
 */
export function servedTools(tools: McpToolSource): ServedTools {
  const list = typeof tools === 'function' ? tools() : tools;
  const byName = new Map<string, ToolDefinition>();
  for (const tool of list) {
    const name = tool.schema.function.name;
    if (!byName.has(name)) byName.set(name, tool);
  }
  return {
    byName,
    described: new Map([...byName.values()].map((tool) => [tool, describeTool(tool)])),
    hasTasks: [...byName.values()].some((tool) => tool.task === true),
  };
}

/** Resources and prompts served in place of `options.resources` / `options.prompts`, with who may use each. */
export type ServedMembers = {
  readonly resources: readonly McpResourceDefinition[];
  readonly prompts: readonly McpPromptDefinition[];
  readonly allows?: McpMemberAccess['allows'];
};

/**
 * {@link createMcpServer} over tools already indexed, with the caller of each request found by `callerOf` (and
 * `members` served as resources and prompts, when given).
 *
 * @internal
 */
export function buildMcpServer(
  served: ServedTools,
  options: McpServerOptions & Pick<McpHttpOptions, 'pollAfterMs'>,
  callerOf: CallerOf,
  members?: ServedMembers,
): Server {
  const resources = members?.resources ?? options.resources ?? [];
  const prompts = members?.prompts ?? options.prompts ?? [];
  const { byName, described, hasTasks } = served;
  const askBack = askBackOf(options, callerOf);
  const server = new TaskServer(
    { name: options.name, version: options.version },
    {
      capabilities: {
        tools: {},
        logging: {},
        ...resourceAndPromptCapabilities(resources, prompts),
        ...(hasTasks && taskCapabilities()),
      },
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      // A retried call's `requestState` is checked (signature, expiry, caller) before its handler runs.
      requestState: { verify: askBack.verify },
    },
  );
  const { visible } = options;
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const caller = callerOf(ctx.http?.authInfo);
    const tools = [...described.keys()];
    const shown = visible ? await Promise.all(tools.map((tool) => isVisible(visible, tool, caller))) : undefined;
    return { tools: tools.filter((_tool, i) => !shown || shown[i]).map((tool) => described.get(tool)!) };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const caller = callerOf(ctx.http?.authInfo);
    const tool = byName.get(request.params.name);
    // A hidden tool is answered like one that does not exist: the caller learns nothing of it.
    if (!tool || (visible && !(await isVisible(visible, tool, caller)))) {
      const name = request.params.name.slice(0, MAX_ECHOED_NAME_CHARS);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Call tool not found: ${maskSecrets(name)}`);
    }
    // A task tool asked for a task (and not a retry bringing an answer, nor a call waiting for approval) starts one.
    const asked = tool.task === true && !tool.needsApproval ? taskRequested(server, request) : undefined;
    if (asked && ctx.mcpReq.requestState() === undefined) {
      const tasks = tasksOf(options, callerOf);
      const task = await tasks.start(callerKey(caller), asked.ttlMs, {
        tool,
        requestId: ctx.mcpReq.id,
        args: request.params.arguments,
        caller,
      });
      if (!task) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Too many tasks: try again later');
      return startedTask(taskCreated(server, task)) as never;
    }
    const poll = pollAfter(ctx, options.pollAfterMs);
    try {
      return await callAskingBack({
        ctx,
        askBack,
        tool,
        requestId: ctx.mcpReq.id,
        args: request.params.arguments,
        signal: ctx.mcpReq.signal,
        caller,
        defaultTimeoutMs: options.defaultTimeoutMs,
        maxResponseChars: options.maxResponseChars,
        onProgress: progressTo(ctx, request.params._meta?.progressToken),
        onLog: (level, data) => void ctx.mcpReq.log(level, data).catch(() => undefined),
      });
    } finally {
      clearTimeout(poll);
    }
  });
  const allows = members?.allows;
  serveResourcesAndPrompts(
    server,
    resources,
    prompts,
    options.resourceUpdates,
    allows && { callerOf: (ctx) => callerOf(ctx.http?.authInfo), allows },
  );
  if (hasTasks) serveTasks(server, tasksOf(options, callerOf), (ctx) => callerKey(callerOf(ctx.http?.authInfo)));
  return server;
}

// The tasks of each handler's servers, kept once: a task outlives the stateless server whose request started it.
const servedTaskTables = new WeakMap<CallerOf, Map<McpServerOptions, TaskBackend>>();

/**
 * The tasks of the servers built with `options` and `callerOf`, made on first use: kept in this process, or queued
 * when `options.tasks.runs` is given.
 *
 * @internal
 */
export function tasksOf(options: McpServerOptions, callerOf: CallerOf): TaskBackend {
  let byOptions = servedTaskTables.get(callerOf);
  if (!byOptions) servedTaskTables.set(callerOf, (byOptions = new Map<McpServerOptions, TaskBackend>()));
  let tasks = byOptions.get(options);
  if (!tasks) {
    const maxTtlMs = options.tasks?.maxTtlMs ?? DEFAULT_MAX_TASK_TTL_MS;
    const runs = options.tasks?.runs;
    tasks = runs
      ? new QueuedTasks(runs, { maxTtlMs, maxResponseChars: options.maxResponseChars })
      : new ServedTasks({ maxTasks: options.tasks?.maxTasks ?? DEFAULT_MAX_TASKS, maxTtlMs }, (call, signal, status) =>
          runMcpCallAsking({
            ...call,
            signal,
            defaultTimeoutMs: options.defaultTimeoutMs,
            maxResponseChars: options.maxResponseChars,
            onProgress: ({ message }) => message !== undefined && status(message),
          }).then(taskResultOf),
        );
    byOptions.set(options, tasks);
  }
  return tasks;
}

// The ask-back of each handler's servers, made once: a stateless handler builds a server for every request.
const askBacks = new WeakMap<CallerOf, Map<McpServerOptions, AskBack>>();

/**
 * The ask-back of the servers built with `options` and `callerOf`, made on first use (a `stateSecret` under 32 bytes
 * throws a `RangeError` then).
 *
 * @internal
 */
export function askBackOf(options: McpServerOptions, callerOf: CallerOf): AskBack {
  let byOptions = askBacks.get(callerOf);
  if (!byOptions) askBacks.set(callerOf, (byOptions = new Map<McpServerOptions, AskBack>()));
  let askBack = byOptions.get(options);
  if (!askBack) byOptions.set(options, (askBack = createAskBack(options.stateSecret, callerOf)));
  return askBack;
}

/**
 * A visibility hook's answer; one that throws hides the tool (a check that cannot decide must not show it).
 *
 * @internal
 */
export async function isVisible(visible: McpToolVisibility, tool: ToolDefinition, caller: unknown): Promise<boolean> {
  try {
    return (await visible(tool, caller)) === true;
  } catch {
    return false;
  }
}

/**
 * Close the call's SSE stream once it has run `ms` (the client reconnects with `Last-Event-ID` and gets the
 * result from the session's event store); nothing where the transport keeps no events to replay.
 */
function pollAfter(ctx: ServerContext, ms: number | undefined): NodeJS.Timeout | undefined {
  const close = ctx.http?.closeSSE;
  if (ms === undefined || !close) return undefined;
  return setTimeout(close, ms);
}

/** Progress notifications for a request whose client asked for them (sent a `progressToken`); else none. */
function progressTo(
  ctx: ServerContext,
  token: ProgressToken | undefined,
): ((progress: ToolProgress) => void) | undefined {
  if (token === undefined) return undefined;
  return ({ progress, total, message }) =>
    void ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        },
      })
      .catch(() => undefined);
}

function describeTool(tool: ToolDefinition): McpTool {
  const { name, description, parameters } = tool.schema.function;
  // MCP requires an object schema; a tool without parameters takes an empty object.
  const inputSchema = (parameters ?? { type: 'object', properties: {} }) as McpTool['inputSchema'];
  return {
    name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(description !== undefined && { description }),
    inputSchema: inputSchema.type === 'object' ? inputSchema : { ...inputSchema, type: 'object' },
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    ...(tool.annotations !== undefined && { annotations: { ...tool.annotations } }),
    ...(tool.task === true && { execution: { taskSupport: 'optional' as const } }),
  };
}
