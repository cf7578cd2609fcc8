import type { RequestOptions, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { ANY_OBJECT, type RawRequest } from './remote-task-call';
import { TASKS_EXTENSION } from './tasks-extension';

/**
 * The 2026 envelope's key for the client's capabilities (the SDK's `CLIENT_CAPABILITIES_META_KEY`), spelled here so
 * that `agentcall/mcp` loads without the v2 client package (a v1 `Client` still works with `mcpTools`).
 */
const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The SDK versions whose `Client` internals the request below is built on. */
const WORKING_SDK = '@modelcontextprotocol/client 2.4.x';

/** What a wire codec's `decodeResult` answers, read only as far as it is passed on. */
type Decoded = { kind: string; result?: Record<string, unknown> };

/** The part of SDK 2.4's wire codec used here. */
type WireCodec = { readonly era?: unknown; decodeResult(method: string, raw: unknown): Decoded };

/** The protected and private members of SDK 2.4's `Client` a raw task request goes through (read, never written). */
type ClientInternals = {
  _wireCodec(): WireCodec;
  _requestWithSchemaViaCodec(
    codec: WireCodec,
    request: { method: string; params: Record<string, unknown> },
    resultSchema: StandardSchemaV1<Record<string, unknown>>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>>;
  _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined;
};

/**
 * A request for 2026-07-28 task traffic on the user's own `Client`, declaring the tasks extension and handing back a
 * `resultType: 'task'` answer as it came.
 *
 * Why the internals: SDK 2.4's `Client` decodes every result through its era's codec, and the 2026 codec refuses
 * any `resultType` but `complete` and `input_required` (`UnsupportedResultType`) before the result schema a caller
 * passes, so neither `callTool` nor `request` can return a task. `@modelcontextprotocol/ext-tasks` has the same
 * problem and asks its host for a raw dispatch (and ships as ES modules only). So the request goes through the
 * client's own request funnel with a codec derived from the client's: only a task result is decoded differently,
 * everything else (the envelope, progress, abort, timeouts, `input_required`) is the SDK's. Nothing is assigned
 * onto the client or its codec: the derived codec is a new object per request.
 *
 * The declared capabilities are the client's own (from its envelope) with the extension added; a `_meta` key of a
 * request wins over the SDK's envelope, so the client's other capabilities (`elicitation`, …) must be repeated.
 *
 * @throws Error naming the SDK versions that work, when this client lacks the internals.
 * @internal
 */
export function rawTaskRequest(client: object): RawRequest {
  const internals = client as Partial<ClientInternals>;
  if (
    typeof internals._wireCodec !== 'function' ||
    typeof internals._requestWithSchemaViaCodec !== 'function' ||
    typeof internals._outboundMetaEnvelope !== 'function'
  ) {
    throw new Error(
      `mcpTools follows 2026-07-28 tasks through the internals of the SDK's own Client (${WORKING_SDK}), and this ` +
        `client lacks them: pass that Client itself, not a wrapper, from a version in that range`,
    );
  }
  const sdk = internals as ClientInternals;
  return (method, params, options) => {
    const codec = sdk._wireCodec();
    const taskAware: WireCodec = Object.create(codec, {
      decodeResult: {
        value: (resultOf: string, raw: unknown): Decoded =>
          isTaskResult(raw) ? { kind: 'complete', result: raw } : codec.decodeResult(resultOf, raw),
      },
    }) as WireCodec;
    const envelope = sdk._outboundMetaEnvelope();
    const own = envelope?.[CLIENT_CAPABILITIES_META_KEY];
    const capabilities = isObject(own) ? own : {};
    const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const declared = {
      ...params,
      _meta: {
        [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
        // A caller's own `_meta` keys win, as they do over the SDK's envelope.
        ...meta,
      },
    };
    return sdk._requestWithSchemaViaCodec(taskAware, { method, params: declared }, ANY_OBJECT, options);
  };
}

/** A 2026-07-28 result that is a task (its fields are checked by the poller, as a remote server's must be). */
function isTaskResult(raw: unknown): raw is Record<string, unknown> {
  return isObject(raw) && raw.resultType === 'task';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
