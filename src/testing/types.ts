import type { ClientOptions, OpenAI } from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ResponseCreateParams } from 'openai/resources/responses/responses';

/**
 * One tool call the scripted model makes: a function call, or with `type: 'custom'` a custom tool's call whose
 * `input` is free text (chat `{ type: 'custom', custom: { name, input } }`, Responses `custom_tool_call`).
 */
export type ScriptedToolCall = {
  /** Defaults to `call_<n>`, unique per server (across sessions), so ids never collide in concurrent runs. */
  id?: string;
  /** `'function'` (the default) or `'custom'`. */
  type?: 'function' | 'custom';
  name: string;
  /** A custom call's free-form input (default `''`); a function call takes `arguments` instead. */
  input?: string;
  /** An object is JSON-stringified; defaults to `''` (what many models send for a tool without parameters). */
  arguments?: string | object;
  /**
   * Explicit streaming fragments; their concatenation is the arguments. Without it `arguments` is split into
   * about three fragments, so a client that does not accumulate fragments fails visibly.
   */
  argumentChunks?: string[];
};

/**
 * Token counts to report; `total_tokens` is always their sum. On the Responses route they are `input_tokens` and
 * `output_tokens`.
 */
export type ScriptedUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  /**
   * The part of `prompt_tokens` read from the prompt cache. Chat: `prompt_tokens_details.cached_tokens`, sent only
   * when set; Responses: `input_tokens_details.cached_tokens`, 0 when not set.
   */
  cached_tokens?: number;
  /**
   * The part of `completion_tokens` spent reasoning. Chat: `completion_tokens_details.reasoning_tokens`, sent only
   * when set; Responses: `output_tokens_details.reasoning_tokens`, 0 when not set.
   */
  reasoning_tokens?: number;
};

/** A citation of the answer's text (the Responses API's `url_citation` annotation). */
export type ScriptedAnnotation = {
  type: 'url_citation';
  url: string;
  title: string;
  start_index: number;
  end_index: number;
};

/** The finish reasons a scripted reply may end with. */
export type ScriptedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * What the scripted model answers to one request, on either route: `POST /v1/chat/completions` or
 * `POST /v1/responses` (where the same reply becomes a `Response`: a reasoning item, a message item and one
 * `function_call` item per tool call, in that order).
 *
 * Every field is optional: `{}` is an empty assistant message with `finish_reason: 'stop'` (on the Responses
 * route a completed response with no output items). Streaming-only fields (`chunkDelayMs`, `cutAfter`,
 * `malformedChunkAt`, `streamErrorAt`) are ignored for non-stream requests. Event numbers count the SSE events
 * of the stream from 0 (event #0 is the role chunk, or `response.created` on the Responses route); the
 * injected faulty event takes position #n and the regular events after it move up by one.
 */
export type ScriptedReply = {
  /** Assistant content, streamed in chunks of `chunkSize` characters. */
  text?: string;
  /**
   * Streamed as `delta.reasoning_content` (non-stream: `message.reasoning_content`), like DeepSeek/Qwen/vLLM. On
   * the Responses route: a `reasoning` output item whose summary is this text (streamed as
   * `response.reasoning_summary_text.delta`), with a deterministic opaque `encrypted_content` to send back.
   */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /**
   * The model refuses: chat `message.refusal` (streamed as `delta.refusal`); on the Responses route a message item
   * with one `refusal` content part (after the text part, when there is text), streamed as `response.refusal.delta`.
   */
  refusal?: string;
  /**
   * Responses output items served exactly as given, before the reply's own items (a hosted tool's
   * `web_search_call`, an `mcp_call`, a `compaction`, an item of a type not known yet…): streamed as their
   * `response.output_item.added` and `response.output_item.done`. The chat route has no place for them and ignores them.
   */
  items?: object[];
  /**
   * Citations of the text, in the Responses shape (`{ type: 'url_citation', url, title, start_index, end_index }`):
   * the `annotations` of the `output_text` part (streamed as `response.output_text.annotation.added`); on the chat
   * route `message.annotations` (streamed as `delta.annotations` after the text) in the chat shape
   * `{ type: 'url_citation', url_citation: { url, title, start_index, end_index } }`.
   */
  annotations?: ScriptedAnnotation[];
  /**
   * Defaults to a deterministic estimate: ceil(characters / 4) of the request messages and of the output.
   * `null` sends no usage at all (some providers never do).
   */
  usage?: ScriptedUsage | null;
  /**
   * Defaults to `'tool_calls'` when there are tool calls, else `'stop'`. On the Responses route `'length'` and
   * `'content_filter'` make the response `incomplete` (`incomplete_details.reason` `max_output_tokens` or
   * `content_filter`, stream ending in `response.incomplete`); the others make it `completed`.
   */
  finishReason?: ScriptedFinishReason;
  /** Characters per streamed text/reasoning chunk; overrides the server's `chunkSize`. */
  chunkSize?: number;
  /** Answer with this HTTP error status (400–599) and an OpenAI-style error body instead of a completion. */
  status?: number;
  /** The error body's message (the SDK's `APIError.message` becomes `<status> <errorMessage>`). */
  errorMessage?: string;
  /** Wait this long before sending headers; cut short when the client disconnects or the server closes. */
  delayMs?: number;
  /** Wait this long between SSE events, so a test can abort mid-stream. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many SSE events: a broken stream that never sends `[DONE]`. */
  cutAfter?: number;
  /** Send an invalid JSON `data:` line as event #n. */
  malformedChunkAt?: number;
  /**
   * Send `data: {"error": {...}}` as event #n, the way providers report a failure mid-stream. On the Responses
   * route: an `error` event (#n) then `response.failed` (#n+1), as OpenAI sends them, and the stream ends there.
   */
  streamErrorAt?: number;
  /**
   * Serve this response exactly as recorded instead of building one: every other field but `delayMs` and
   * `chunkDelayMs` is ignored. See {@link RecordedResponse} and {@link recordedReply}.
   */
  recorded?: RecordedResponse;
};

/**
 * A provider's response replayed byte for byte: the server adds nothing (no `[DONE]`, no usage, no ids), so a
 * stream that ends without `[DONE]`, SSE comments, odd line endings or an event split across reads reach the
 * client as written.
 */
export type RecordedResponse = {
  /** HTTP status; default 200. */
  status?: number;
  /**
   * Response headers. Without a `content-type`, it is `text/event-stream` when the request asked to stream and
   * `application/json` otherwise.
   */
  headers?: Record<string, string>;
  /**
   * The body. A list is written one piece per write (`chunkDelayMs` apart when the reply sets it), so a test
   * can split an event, or a UTF-8 character, across network reads.
   */
  body: string | Uint8Array | readonly (string | Uint8Array)[];
};

/** A reply, or a function that builds one from the request it answers (for assertions or request-dependent answers). */
export type ScriptedTurn = ScriptedReply | ((request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** The API a request used: `POST /v1/chat/completions` or `POST /v1/responses`. */
export type ScriptedWire = 'chat' | 'responses';

/** What a request records whichever route it came by. */
export type RecordedRequestBase = {
  /** Position in {@link ScriptedServer.requests}: unique per server, in arrival order. */
  index: number;
  /** Position in its own script's `requests` (default script or session): the turn it consumed. */
  turnIndex: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /**
   * The body in chat-completions shape on both routes, so one turn function or assertion serves both wires.
   * A Responses body is translated back: `instructions` becomes a leading system message; input messages keep
   * their role (`input_text` parts become `text` parts, an assistant's `output_text` parts its string
   * content); `function_call` items become the `tool_calls` of the assistant message before them (or of a new
   * one with `content: null`); `function_call_output` items become `role: 'tool'` messages; `reasoning` items
   * are attached, as received, to the next assistant message as `reasoning_items`, and other output items sent
   * back (a hosted tool's call, a compaction) as its `output_items`; `custom_tool_call` items become `custom` tool
   * calls and their outputs `role: 'tool'` messages; an `item_reference` to an item this server served is read as
   * that item (peers send them instead of the item); function tools and
   * `tool_choice` take their chat shape; `max_output_tokens` becomes `max_tokens`, `text.format`
   * `response_format` and `reasoning.effort` `reasoning_effort`; every other field is kept. The server does not
   * validate a body beyond being a JSON object.
   */
  body: ChatCompletionCreateParams;
  /** The bearer token, which selects the script. */
  apiKey?: string;
};

/**
 * A request as the server received it; recorded before it is answered. `wire` tells the route, and `rawBody`
 * holds the JSON exactly as sent (on the chat route the same object as `body`).
 */
export type RecordedRequest =
  | (RecordedRequestBase & {
      /** Came by `POST /v1/chat/completions`. */
      wire: 'chat';
      /** The parsed JSON body as received: the same object as `body`. */
      rawBody: ChatCompletionCreateParams;
    })
  | (RecordedRequestBase & {
      /** Came by `POST /v1/responses`. */
      wire: 'responses';
      /** The parsed JSON body as received, before its translation into `body`. */
      rawBody: ResponseCreateParams;
    });

/** Options of {@link startScriptedServer}. */
export type ScriptedServerOptions = {
  /** The default script, consumed by requests that carry no session key. */
  turns?: ScriptedTurn[];
  /** Characters per streamed text/reasoning chunk unless a reply says otherwise; default 8. */
  chunkSize?: number;
  /** Model name reported in responses; defaults to echoing the request's `model`. */
  model?: string;
  /** Largest request body read, in bytes; a larger request gets HTTP 413. Default 32 MiB. */
  maxBodyBytes?: number;
};

/** openai client options for a scripted client; `apiKey` and `baseURL` are fixed because they select the script. */
export type ScriptedClientOptions = Omit<ClientOptions, 'apiKey' | 'baseURL'>;

/** An independent script on a shared server, selected by its own API key so concurrent runs never cross-talk. */
export interface ScriptedSession {
  readonly apiKey: string;
  readonly baseURL: string;
  /** The requests this session received, in order. */
  readonly requests: RecordedRequest[];
  /** An openai client bound to this session (`maxRetries: 0` unless overridden). */
  client(options?: ScriptedClientOptions): OpenAI;
  /** Turns not yet consumed. */
  pending(): number;
  /** Append turns to this session's script. */
  enqueue(...turns: ScriptedTurn[]): void;
}

/** A running scripted OpenAI-compatible server (chat completions and Responses); see {@link startScriptedServer}. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string;
  /** Every request received on either route (all sessions), in arrival order. */
  readonly requests: RecordedRequest[];
  /** Append turns to the default script. */
  enqueue(...turns: ScriptedTurn[]): void;
  /** Start an independent script with its own API key. */
  session(turns?: ScriptedTurn[]): ScriptedSession;
  /** An openai client for the default script (`maxRetries: 0` unless overridden). */
  client(options?: ScriptedClientOptions): OpenAI;
  /** Turns not yet consumed in the default script. */
  pending(): number;
  /** Close the server and every open connection, stalled ones included; idempotent. */
  close(): Promise<void>;
}
