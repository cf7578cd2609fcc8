import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { rawTaskRequest } from './raw-task-request';
import { TASKS_EXTENSION } from './tasks-extension';
import { ANY_OBJECT, type RawRequest } from './remote-task-call';

/** A remote tool as either SDK lists it, read loosely: a remote server is not trusted to follow the spec. */
export type RemoteTool = {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  annotations?: { title?: string | undefined } | undefined;
  /** 2025-11-25: whether the tool runs as a task (`'required'`, `'optional'` or `'forbidden'`). */
  execution?: { taskSupport?: string | undefined } | undefined;
};

/** A `tools/list` page as every SDK returns it (optional fields may be `undefined`, as SDK v1 types them). */
export type ToolsPage = { tools: RemoteTool[]; nextCursor?: string | undefined };

/** A `tools/call` result as every SDK returns it (read loosely: a remote server is not trusted to follow the spec). */
export type RemoteCallResult = {
  content?: unknown;
  structuredContent?: unknown;
  toolResult?: unknown;
  isError?: unknown;
  /** 2026-07-28: `'input_required'` when the server asks before it answers (with `inputRequests`, `requestState`). */
  resultType?: unknown;
  inputRequests?: unknown;
  requestState?: unknown;
};

/** What one remote call needs: its name and arguments. */
export type RemoteCallParams = {
  name: string;
  arguments?: Record<string, unknown> | undefined;
  /** 2026-07-28, a retry: the answers to what the server asked, by its input keys. */
  inputResponses?: Record<string, unknown>;
  /** 2026-07-28, a retry: the server's `requestState`, sent back as it came. */
  requestState?: string;
};

/** A connected SDK v2 `Client` (`@modelcontextprotocol/client`), or anything with the same methods. */
export type McpV2ToolsClient = Pick<Client, 'listTools' | 'callTool' | 'getProtocolEra' | 'request'>;

/**
 * A connected SDK v1 `Client` (`@modelcontextprotocol/sdk`, fixed until about the end of January 2027): its
 * `callTool` takes a result schema before the options.
 */
export type McpV1ToolsClient = {
  listTools(params?: { cursor?: string | undefined }): Promise<ToolsPage>;
  callTool(params: RemoteCallParams, resultSchema?: undefined, options?: RequestOptions): Promise<RemoteCallResult>;
};

/** The client `mcpTools` reads tools from and calls them through: an SDK v2 or v1 `Client`. */
export type McpToolsClient = McpV2ToolsClient | McpV1ToolsClient;

/** The client's calls in one shape, whichever SDK made it. */
export type RemoteToolsClient = {
  listTools(cursor: string | undefined): Promise<ToolsPage>;
  callTool(params: RemoteCallParams, options: RequestOptions): Promise<RemoteCallResult>;
  /** Any request, its result unchecked (an SDK v2 client only): how 2025-11-25 task tools are called and polled. */
  request?: RawRequest;
  /**
   * A request declaring the tasks extension, a task result handed back as it came: set on a 2026-07-28 connection
   * to a server that announces the extension. Every call goes through it, as any tool may answer with a task.
   */
  modernTaskRequest?: RawRequest;
};

/**
 * Both SDKs' clients behind one shape: v2's `callTool(params, options)` and v1's `callTool(params, schema,
 * options)` (told apart by v2's `getProtocolEra`).
 *
 * @internal
 */
export function remoteToolsClient(client: McpToolsClient): RemoteToolsClient {
  if ('getProtocolEra' in client && typeof client.getProtocolEra === 'function') {
    const v2 = client;
    return {
      // v2's `listTools()` without a cursor walks every page itself; the first page is asked for alone so that
      // `maxPages` and `maxTools` bound the walk here.
      listTools: (cursor) =>
        cursor === undefined ? v2.request({ method: 'tools/list', params: {} }) : v2.listTools({ cursor }),
      callTool: (params, options) => v2.callTool(params, options),
      request: (method, params, options) => v2.request({ method, params }, ANY_OBJECT, options),
      ...(v2.getProtocolEra() === 'modern' && announcesTasks(v2) && { modernTaskRequest: rawTaskRequest(v2) }),
    };
  }
  const v1 = client;
  return {
    listTools: (cursor) => v1.listTools(cursor === undefined ? undefined : { cursor }),
    callTool: (params, options) => v1.callTool(params, undefined, options),
  };
}

/** Whether the server said it answers with tasks on 2026-07-28 (an extension in its capabilities). */
function announcesTasks(client: McpV2ToolsClient): boolean {
  const read = (client as Partial<Pick<Client, 'getServerCapabilities'>>).getServerCapabilities;
  if (typeof read !== 'function') return false;
  const extensions: unknown = read.call(client)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}
