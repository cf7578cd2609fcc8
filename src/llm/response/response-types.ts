import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ReasoningEffort } from 'openai/resources/shared';
import type { LLMClient } from '../client';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from '../type';

/** What `onToolParam` receives. */
export type ToolParamEvent = {
  /** The call the fragment belongs to, with its final id. */
  call: ChatCompletionMessageToolCall;
  /** The fragment, not the running total. */
  argsDelta: string;
  /** For an event of an agent's run (`defineAgent`): the call ids from the root run to that agent. */
  agentPath?: string[];
};

/** Streaming hooks of one model request: tool calls as they stream in, answer and reasoning deltas. */
export type ResponseEvents = {
  /**
   * A new tool call appeared (its arguments may still be empty). Fired once per call, unknown names included;
   * `call.id` is already final: the same id reaches `onToolParam`, `onAfterToolCall` and the history.
   */
  onToolCall?: (e: { call: ChatCompletionMessageToolCall; agentPath?: string[] }) => void;
  /** One arguments fragment of `call`. */
  onToolParam?: (e: ToolParamEvent) => void;
  /**
   * Told when a hook (any of them) threw or its promise rejected. Hooks are observers: the run or response goes
   * on as if the hook had not been there, and nothing it threw reaches the model. A throw here is ignored.
   */
  onHookError?: (e: { hook: string; error: unknown }) => void;
  /** Each visible answer delta (the whole text once for a non-streamed response). */
  onStreaming?: (e: { text: string; agentPath?: string[] }) => void;
  /**
   * Each reasoning delta: `reasoning_content` (or the field the provider uses), a leading `<think>…</think>` block,
   * or on the Responses wire a reasoning summary or reasoning text delta; a summary that arrives whole (not streamed)
   * comes once, whole.
   */
  onReasoning?: (e: { text: string; agentPath?: string[] }) => void;
};

/** A chat-completions body as agentcall sends it: `stream` is a plain flag, `stream_options` is set for you. */
export type LLMRequestBody = Omit<ChatCompletionCreateParamsBase, 'messages' | 'stream' | 'stream_options'> & {
  messages: ChatCompletionMessageParam[];
  /** Stream the answer (default `true`). */
  stream?: boolean;
  /**
   * The Responses API's reasoning settings: `effort`, and `summary` (`'auto'`, `'concise'`, `'detailed'`) to have
   * OpenAI send reasoning summaries, which reach `onReasoning` (without it OpenAI sends none). On the Responses wire
   * `reasoning_effort`, when also set, wins over `effort`; on the chat wire the field goes out as it is (OpenRouter
   * reads it there; OpenAI's chat endpoint takes `reasoning_effort` instead).
   */
  reasoning?: { effort?: ReasoningEffort; summary?: 'auto' | 'concise' | 'detailed' | null };
};

/** Arguments of {@link createLLMResponse}. */
export type CreateLLMResponseProps = ResponseEvents & {
  body: LLMRequestBody;
  /** An openai SDK client (`new OpenAI(...)`, openai 6 or 7); without it one is built from `userKey` or the environment. */
  client?: LLMClient;
  /** The caller's own OpenAI-compatible account (`baseUrl`, e.g. `http://localhost:11434/v1` for Ollama; `key`): used when no client is given. */
  userKey?: { baseUrl?: string; key?: string };
  /** Polled on every chunk: return true to stop the stream (`finish_reason: 'close'`). */
  isAborted?: () => boolean | undefined | null;
  /** Aborting it cancels the request (`finish_reason: 'close'`). */
  abortSignal?: AbortSignal;
  /**
   * Per-request SDK options. `timeout` (ms) bounds the wait for the response headers (the SDK's own
   * timeout) and, for a stream, every wait for progress: a stream that goes silent, or sends only empty chunks
   * and keep-alives, for longer ends with `StreamIdleTimeoutError` (the SDK alone would wait forever on a stream
   * that stalls after its headers).
   */
  requestOptions?: { timeout?: number; headers?: Record<string, string> };
  /**
   * Tool-call ids already in use. A call whose id is among them (or repeats one of this response) gets a fresh
   * id when it is first seen, before any hook; every id the response uses is added. Default: the ids of the
   * tool calls in `body.messages`.
   */
  callIds?: Set<string>;
  /**
   * Most bytes the response may have (default `DEFAULT_MAX_RESPONSE_BYTES`, 16 MiB), counted on what it
   * accumulates (answer text, reasoning, tool-call names, ids and arguments, in UTF-8), not on the SSE envelopes
   * around them; past it, `ResponseTooLargeError`. A much larger guard on the bytes on the wire stops a stream of
   * envelopes without end (see `docs/security.md`).
   */
  maxResponseBytes?: number;
  /** Longest SSE line (one event) the response may send (default `DEFAULT_MAX_SSE_LINE_BYTES`, 2 MiB). */
  maxSseLineBytes?: number;
  /**
   * How a streamed body becomes chunks. `'lean'` (the default): the request still goes through the SDK (retries,
   * typed HTTP errors, auth, headers), and its body is read by a small SSE parser and `JSON.parse`, at well under
   * half the SDK's CPU per chunk, with the same results. `'sdk'`: the SDK's own stream iterator. A client without
   * `asResponse` (a stand-in object) always uses its iterator.
   */
  streamParser?: 'lean' | 'sdk';
  /**
   * Which API the request goes over: `'chat'` (Chat Completions), `'responses'` (the Responses API: the body and
   * history are translated, reasoning items kept on the assistant message), or `'auto'` (the default): `'responses'`
   * when the client's `baseURL` is OpenAI's own API, `'chat'` otherwise. The result has the same shape either way.
   */
  wire?: Wire;
};

/** How a streamed response body is parsed: see {@link CreateLLMResponseProps.streamParser}. */
export type StreamParser = NonNullable<CreateLLMResponseProps['streamParser']>;

/** What one model request produced. Failures come back in `error`, never as a throw. */
export type LLMResponse = {
  /** The provider's completion id, or a generated one. */
  requestId: string;
  isStreamResponse: boolean;
  answerText: string;
  reasoningText: string;
  /**
   * The model's refusal, when it refused (chat `message.refusal` / `delta.refusal`, Responses `refusal` content and
   * `response.refusal.delta`); also on `assistantMessage.refusal`. A refusal is an answer, not an error.
   */
  refusal?: string;
  /** Every function call the model made, unknown names included; empty arguments are `'{}'`. */
  toolCalls: ChatCompletionMessageToolCall[];
  /**
   * Tool calls of a type agentcall cannot run (anything but `function`; a call with a `function` and no
   * `type` counts as a function call), left out of `toolCalls` and of the assistant message. On the Responses wire
   * the other output items are kept on the assistant message (`output_items`), not dropped.
   */
  droppedToolCalls?: { id?: string; type: string }[];
  /** Why the response ended: the provider's reason, or `'close'` (the stream closed) or `'error'`. */
  finish_reason: ChatCompletionChunk.Choice['finish_reason'] | 'close' | 'error';
  /**
   * The provider's numbers, or an estimate when it reports none. `cachedTokens` and `reasoningTokens` (when the
   * endpoint reports them) are parts of `inputTokens` and `outputTokens`, never added to them.
   */
  usage: {
    inputTokens: number;
    outputTokens: number;
    /** Of `inputTokens`, those read from the provider's prompt cache. */
    cachedTokens?: number;
    /** Of `outputTokens`, those spent reasoning. */
    reasoningTokens?: number;
  };
  /**
   * The message to append to the history. After an error or abort it keeps the partial text but no tool
   * calls, since those calls were never completed and would leave the history without their tool messages.
   */
  assistantMessage?: ChatCompletionAssistantMessageParam;
  /** The request error (HTTP status, broken stream, timeout), with whatever arrived before it kept above. */
  error?: unknown;
  /** Milliseconds from sending the request to its end. */
  ms: number;
  /** Milliseconds from sending the request to the first streamed chunk (absent when none arrived). */
  firstChunkMs?: number;
  /**
   * How many times the openai SDK sent the request again by itself (its `maxRetries`, on a 408, 409, 429, 5xx or a
   * failed connection) before the answer or error above: 0 when the first attempt was the last. Counted from the
   * request body the SDK serializes once per attempt, without touching the client; a stand-in client that never
   * serializes the body reports 0.
   */
  retries: number;
};

/**
 * Which OpenAI API a request speaks: `'chat'` (Chat Completions, `/chat/completions`), `'responses'` (the Responses
 * API, `/responses`), or `'auto'` (the default): `'responses'` when the client's `baseURL` is OpenAI's own API
 * (`https://api.openai.com/...`) and the client has `responses.create`, `'chat'` otherwise. The history, hooks, ids
 * and results are the same on both.
 */
export type Wire = 'auto' | 'chat' | 'responses';

/** The hooks fired while tool calls stream in. */
export type ToolCallStreamEvents = Pick<ResponseEvents, 'onToolCall' | 'onToolParam' | 'onHookError'>;
