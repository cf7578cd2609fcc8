import { APIError } from 'openai';
import { StreamIdleTimeoutError } from '../errors/stream-idle-timeout.error';
import { linkAbort } from '../utils/abort';
import { startIdleTimer } from './stream/idle-timer';
import { resolveClient, type LLMClient } from './client';
import { wireLimit, withResponseLimits, type ResponseLimits } from './stream/limit-response';
import { readLeanStream, type ChunkReceiver, type LeanStreamOptions } from './stream/lean-stream';
import { chatWire } from './wires/chat/chat-wire';
import { responsesWire } from './wires/responses/wire';
import type { APIErrorClass } from './wires/responses/response-reader';
import { chooseWire, type WireProtocol } from './wires/wire';
import { isEventStream } from './stream/event-stream-check';
import { nameConnectionFailure } from './connection-failure';
import { RequestAttempts } from './request-attempts';
import { ResponseState } from './response/response-state';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_SSE_LINE_BYTES } from '../constants';
import type { CreateLLMResponseProps, LLMResponse } from './response/response-types';

// The types live in their own file so the response state can use them without importing this module.
export type {
  CreateLLMResponseProps,
  LLMRequestBody,
  LLMResponse,
  ResponseEvents,
  StreamParser,
} from './response/response-types';

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
    const resolved = resolveClient(props.client, props.userKey);
    if (resolved instanceof Error) throw resolved;
    base = resolved;
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
