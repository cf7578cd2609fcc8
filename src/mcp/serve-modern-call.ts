import type { ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type AuthInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isVisible, type ServedTools } from './create-mcp-server';
import type { McpServerOptions } from './mcp-server-options';
import { callAskingBack, type AskBack } from './serve-ask-back';
import { TASKS_EXTENSION } from './tasks-extension';

/** The one protocol revision this path answers; any other goes to the SDK, which knows them all. */
const MODERN_REVISION = '2026-07-28';

/** One 2026-07-28 request the handler has read, with what it knows of its caller. */
export type ModernCall = {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly res: ServerResponse;
  readonly served: ServedTools;
  readonly options: McpServerOptions;
  readonly askBack: AskBack;
  readonly authInfo: AuthInfo;
  readonly caller: unknown;
};

/**
 * Answer a plain 2026-07-28 `tools/call` (one JSON-RPC request, the headers agreeing with its `_meta` envelope, no
 * progress token, log level, retry state or task) without building an SDK server for it: the call runs through the
 * same `callAskingBack` as the server's handler, and the answer is the JSON the SDK would send. Everything else (a
 * call that is not plain, an unknown or hidden tool, any other method) is left to the SDK: `false`.
 *
 * A stateless request needs no session, no transport and no web `Request`: building those per request is most of
 * what the SDK's stateless path costs.
 *
 * @internal
 */
export async function answerModernCall(call: ModernCall): Promise<boolean> {
  const plain = plainCall(call.headers, call.body);
  if (!plain) return false;
  const tool = call.served.byName.get(plain.name);
  if (!tool || tool.needsApproval || (tool.task === true && plain.declaresTasks)) return false;
  const { options } = call;
  if (options.visible && !(await isVisible(options.visible, tool, call.caller))) return false;
  const controller = new AbortController();
  const onClose = () => controller.abort(new Error('the client went away'));
  call.res.once('close', onClose);
  try {
    // What `callAskingBack` reads of a request's context: its method, its (absent) retry state, and its auth, to
    // which a question's signed state is bound.
    const ctx = {
      mcpReq: { id: plain.id, method: 'tools/call', requestState: () => undefined, inputResponses: undefined },
      http: { authInfo: call.authInfo },
    } as unknown as ServerContext;
    const result = await callAskingBack({
      ctx,
      askBack: call.askBack,
      tool,
      requestId: plain.id,
      args: plain.args,
      signal: controller.signal,
      caller: call.caller,
      defaultTimeoutMs: options.defaultTimeoutMs,
      maxResponseChars: options.maxResponseChars,
    });
    const { _meta: meta, ...rest } = result;
    const answer = {
      result: {
        ...rest,
        resultType: (rest as { resultType?: string }).resultType ?? 'complete',
        _meta: { ...meta, [SERVER_INFO_META_KEY]: { name: options.name, version: options.version } },
      },
      jsonrpc: '2.0',
      id: plain.id,
    };
    if (!call.res.destroyed) {
      call.res.writeHead(200, { 'content-type': 'application/json' });
      call.res.end(JSON.stringify(answer));
    }
    return true;
  } finally {
    call.res.off('close', onClose);
  }
}

type PlainCall = {
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
  declaresTasks: boolean;
};

/** The call, when `body` is a plain 2026-07-28 `tools/call` whose headers say what its body says. */
function plainCall(headers: ModernCall['headers'], body: unknown): PlainCall | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const { id, params } = message;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const { name, arguments: args, _meta: meta, ...others } = params as Record<string, unknown>;
  // A retry carrying answers (`requestState`, `inputResponses`) or a task request is the SDK's to read.
  if (Object.keys(others).length > 0) return undefined;
  if (typeof name !== 'string' || typeof meta !== 'object' || meta === null) return undefined;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined;
  const envelope = meta as Record<string, unknown>;
  if (envelope[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  if ('progressToken' in envelope || LOG_LEVEL_META_KEY in envelope) return undefined;
  if (
    headers['mcp-protocol-version'] !== MODERN_REVISION ||
    headers['mcp-method'] !== 'tools/call' ||
    headers['mcp-name'] !== name ||
    !acceptsJson(headers.accept) ||
    !isJson(headers['content-type'])
  ) {
    return undefined;
  }
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return {
    id,
    name,
    args: args as Record<string, unknown> | undefined,
    declaresTasks: capabilities?.extensions?.[TASKS_EXTENSION] !== undefined,
  };
}

function acceptsJson(accept: string | string[] | undefined): boolean {
  return typeof accept === 'string' && accept.includes('application/json') && accept.includes('text/event-stream');
}

function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('application/json');
}
