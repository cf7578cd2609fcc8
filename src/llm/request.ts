import { APIError } from 'openai';
import { StreamIdleTimeoutError } from '../errors/stream-idle-timeout.error';
import { linkAbort } from '../utils/abort';
import { startIdleTimer } from './idle-timer';
import { resolveClient, type LLMClient, type UserKey } from './client';
import type { ToolCallStreamEvents } from './tool-call-accumulator';
import { wireLimit, withResponseLimits, type ResponseLimits } from './limit-response';
import { readLeanStream, type ChunkReceiver, type LeanStreamOptions } from './lean-stream';
import { chatWire } from './chat-wire';
import { responsesWire } from './responses/wire';
import type { APIErrorClass } from './responses/response-reader';
import { chooseWire, type Wire, type WireProtocol } from './wire';
import { isEventStream } from './event-stream-check';
import { nameConnectionFailure } from './connection-failure';
import { RequestAttempts } from './request-attempts';
import type { TokenUsage } from './usage';
import { ResponseState } from './response-state';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_SSE_LINE_BYTES } from '../constants';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  CompletionFinishReason,
} from './type';

/** Streaming hooks of one model request. */
export type ResponseEvents = ToolCallStreamEvents & {
  /** Each visible answer delta (the whole text once for a non-streamed response). */
  onStreaming?: (e: { text: string }) => void;
  /** Each reasoning delta: `reasoning_content`, or a leading `<think>…</think>` block. */
  onReasoning?: (e: { text: string }) => void;
};

/** A chat-completions body as agentcall sends it: `stream` is a plain flag, `stream_options` is set for you. */
export type LLMRequestBody = Omit<ChatCompletionCreateParamsBase, 'messages' | 'stream' | 'stream_options'> & {
  messages: ChatCompletionMessageParam[];
  /** Stream the answer (default `true`). */
  stream?: boolean;
};

/** Arguments of {@link createLLMResponse}. */
export type CreateLLMResponseProps = ResponseEvents & {
  body: LLMRequestBody;
  /** An openai SDK client (`new OpenAI(...)`, openai 6 or 7); without it one is built from `userKey` or the environment. */
  client?: LLMClient;
  userKey?: UserKey;
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
  streamParser?: StreamParser;
  /**
   * Which API the request goes over: `'chat'` (Chat Completions), `'responses'` (the Responses API: the body and
   * history are translated, reasoning items kept on the assistant message), or `'auto'` (the default): `'responses'`
   * when the client's `baseURL` is OpenAI's own API, `'chat'` otherwise. The result has the same shape either way.
   */
  wire?: Wire;
};

/** How a streamed response body is parsed: see {@link CreateLLMResponseProps.streamParser}. */
export type StreamParser = 'lean' | 'sdk';

/** What one model request produced. Failures come back in `error`, never as a throw. */
export type LLMResponse = {
  /** The provider's completion id, or a generated one. */
  requestId: string;
  isStreamResponse: boolean;
  answerText: string;
  reasoningText: string;
  /** Every function call the model made, unknown names included; empty arguments are `'{}'`. */
  toolCalls: ChatCompletionMessageToolCall[];
  /**
   * Tool calls of a type agentcall cannot run (anything but `function`; a call with a `function` and no
   * `type` counts as a function call), left out of `toolCalls` and of the assistant message. On the Responses wire:
   * every output item that is neither a message, a reasoning item nor a function call (a hosted tool's call).
   */
  droppedToolCalls?: { id?: string; type: string }[];
  finish_reason: CompletionFinishReason;
  /** The provider's numbers, or an estimate when it reports none. */
  usage: TokenUsage;
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
 * One model request over the openai SDK, streamed or not, with hooks for text, reasoning, tool calls and argument
 * fragments. It goes over Chat Completions or the Responses API (`wire`, by default chosen from the client's base
 * URL); the body, history, hooks and result are chat-shaped either way.
 *
 * @example
 * const res = await createLLMResponse({ client, body: { model: 'gpt-4o-mini', messages, tools }, onStreaming: ({ text }) => process.stdout.write(text) });
 */
export async function createLLMResponse(props: CreateLLMResponseProps): Promise<LLMResponse> {
  const { body, isAborted, abortSignal, requestOptions } = props;
  const stream = body.stream ?? true;
  const state = new ResponseState(props, stream);
  const { controller, dispose } = linkAbort(abortSignal);
  state.startedAt = performance.now();
  let wire: WireProtocol = chatWire;
  let base: LLMClient | undefined;
  const attempts = new RequestAttempts();
  try {
    if (isAborted?.() || controller.signal.aborted) return state.close();
    const maxResponseBytes = props.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const limits: ResponseLimits = {
      maxResponseBytes,
      maxLineBytes: props.maxSseLineBytes ?? DEFAULT_MAX_SSE_LINE_BYTES,
      maxWireBytes: wireLimit(maxResponseBytes, stream),
    };
    const lean = stream && props.streamParser !== 'sdk';
    // The lean reader counts the wire bytes itself; the SDK's parser needs them capped before it sees them. What
    // the response keeps is counted by `state` on either path.
    base = resolveClient(props.client, props.userKey);
    if (chooseWire(props.wire, base) === 'responses') wire = responsesWire;
    const client = lean ? base : withResponseLimits(base, limits);
    // The SDK adds a listener to the signal it is given, and on Node 20 that costs microseconds on a fresh signal:
    // a request nothing outside can abort gets none (the lean reader stops by cancelling the body, a non-streamed
    // request has no stop before its end). The SDK's own parser stops only through the signal.
    const followed = abortSignal !== undefined || (stream && !lean);
    const options = followed ? { ...requestOptions, signal: controller.signal } : requestOptions;
    const apiError = apiErrorOf(base) ?? (APIError as unknown as APIErrorClass);
    const pending = wire.send(client, body, stream, options, attempts);
    attempts.arm();
    // A stand-in client without `asResponse` has only the iterator (or the whole response) to offer.
    const response = stream && typeof pending.asResponse === 'function' ? await pending.asResponse() : undefined;
    if (!stream) {
      wire.receiver(state, apiError).consume(await pending);
    } else if (response && (lean || !isEventStream(response))) {
      // A body that is not labelled an event stream goes to the lean reader on either parser: it reads a mislabelled
      // stream as the SDK would, and quotes a body that holds no event in its error (the SDK's iterator would end
      // with nothing, and the run with "empty response").
      await readLeanStream(response, wire.receiver(state, apiError, response.headers), {
        controller,
        limits,
        idleMs: requestOptions?.timeout,
        apiError,
      });
    } else {
      const chunks = (await pending) as AsyncIterable<unknown>;
      await readSdkStream(chunks, wire.receiver(state, apiError), controller, requestOptions?.timeout);
    }
  } catch (error) {
    state.error = wire.failure(nameConnectionFailure(error ?? new Error('Request failed'), base, wire.path));
  } finally {
    dispose();
  }
  state.retries = attempts.retries;
  // An abort may surface as a throw or, mid-stream, as a quiet end of the SDK's iterator: judge it by the signal.
  const reason: unknown = controller.signal.reason;
  if (reason instanceof StreamIdleTimeoutError) state.error = reason;
  else if (controller.signal.aborted || (state.error !== undefined && isAborted?.())) {
    state.error = undefined;
    state.finishReason = 'close';
  }
  return state.result();
}

/** Reads a stream through the SDK's own iterator, handing each chunk to `receiver`. */
async function readSdkStream<Chunk>(
  stream: AsyncIterable<Chunk>,
  receiver: ChunkReceiver<Chunk>,
  controller: AbortController,
  idleTimeoutMs: number | undefined,
): Promise<void> {
  const idle = startIdleTimer(controller, idleTimeoutMs);
  try {
    for await (const chunk of stream) {
      // A hook may have aborted the request: chunks the SDK already buffered must not reach hooks after that.
      if (controller.signal.aborted) return;
      const progress = receiver.progress;
      if (!receiver.receive(chunk)) {
        controller.abort();
        return;
      }
      // Only progress keeps the stream alive: empty chunks must not hold it open past the timeout.
      if (receiver.progress !== progress) idle?.refresh();
    }
    receiver.endStream();
  } finally {
    clearTimeout(idle);
  }
}

/** The `APIError` class of the module `client` was built from, so in-band errors pass the user's `instanceof`. */
function apiErrorOf(client: object): LeanStreamOptions['apiError'] {
  const ctor: unknown = Reflect.get(client, 'constructor');
  const apiError: unknown = typeof ctor === 'function' ? Reflect.get(ctor, 'APIError') : undefined;
  return typeof apiError === 'function' ? (apiError as LeanStreamOptions['apiError']) : undefined;
}
