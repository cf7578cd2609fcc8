import type { ClientOptions, OpenAI } from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';

/** One tool call the scripted model makes. */
export type ScriptedToolCall = {
  /** Defaults to `call_<n>`, unique per server (across sessions), so ids never collide in concurrent runs. */
  id?: string;
  name: string;
  /** An object is JSON-stringified; defaults to `''` (what many models send for a tool without parameters). */
  arguments?: string | object;
  /**
   * Explicit streaming fragments; their concatenation is the arguments. Without it `arguments` is split into
   * about three fragments, so a client that does not accumulate fragments fails visibly.
   */
  argumentChunks?: string[];
};

/** Token counts to report; `total_tokens` is always their sum. */
export type ScriptedUsage = { prompt_tokens: number; completion_tokens: number };

/** The finish reasons a scripted reply may end with. */
export type ScriptedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * What the scripted model answers to one request.
 *
 * Every field is optional: `{}` is an empty assistant message with `finish_reason: 'stop'`. Streaming-only
 * fields (`chunkDelayMs`, `cutAfter`, `malformedChunkAt`, `streamErrorAt`) are ignored for non-stream requests.
 * Event numbers count the SSE `data:` events of the stream from 0 (event #0 is the role chunk); the
 * injected faulty event takes position #n and the regular events after it move up by one.
 */
export type ScriptedReply = {
  /** Assistant content, streamed in chunks of `chunkSize` characters. */
  text?: string;
  /** Streamed as `delta.reasoning_content` (non-stream: `message.reasoning_content`), like DeepSeek/Qwen/vLLM. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /**
   * Defaults to a deterministic estimate: ceil(characters / 4) of the request messages and of the output.
   * `null` sends no usage at all (some providers never do).
   */
  usage?: ScriptedUsage | null;
  /** Defaults to `'tool_calls'` when there are tool calls, else `'stop'`. */
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
  /** Send `data: {"error": {...}}` as event #n, the way providers report a failure mid-stream. */
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

/** A chat-completions request as the server received it; recorded before it is answered. */
export type RecordedRequest = {
  /** Position in {@link ScriptedServer.requests}: unique per server, in arrival order. */
  index: number;
  /** Position in its own script's `requests` (default script or session): the turn it consumed. */
  turnIndex: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; the server does not validate it beyond being a JSON object. */
  body: ChatCompletionCreateParams;
  /** The bearer token, which selects the script. */
  apiKey?: string;
};

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

/** A running scripted chat-completions server; see {@link startScriptedServer}. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string;
  /** Every chat-completions request received (all sessions), in arrival order. */
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
