import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { StreamIdleTimeoutError } from '../errors/stream-idle-timeout.error';
import { linkAbort } from '../utils/abort';
import { startIdleTimer } from './idle-timer';
import { resolveClient, type LLMCompletionPromise } from './client';
import { wireLimit, withResponseLimits, type ResponseLimits } from './limit-response';
import { readLeanStream, type LeanStreamOptions } from './lean-stream';
import { ResponseState } from './response-state';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_SSE_LINE_BYTES } from '../constants';

import type { CreateLLMResponseProps, LLMResponse } from './response-types';

// The types live in their own file so the response state can use them without importing this module.
export type {
  CreateLLMResponseProps,
  LLMRequestBody,
  LLMResponse,
  ResponseEvents,
  StreamParser,
} from './response-types';

/**
 * One chat-completions request over the openai SDK, streamed or not, with hooks for text, reasoning,
 * tool calls and argument fragments.
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
    const base = resolveClient(props.client, props.userKey);
    const client = lean ? base : withResponseLimits(base, limits);
    // The SDK adds a listener to the signal it is given, and on Node 20 that costs microseconds on a fresh signal:
    // a request nothing outside can abort gets none (the lean reader stops by cancelling the body, a non-streamed
    // request has no stop before its end). The SDK's own parser stops only through the signal.
    const followed = abortSignal !== undefined || (stream && !lean);
    const options = followed ? { ...requestOptions, signal: controller.signal } : requestOptions;
    if (!stream) {
      const completion = await client.chat.completions.create({ ...body, stream: false }, options);
      state.consumeCompletion(completion as ChatCompletion);
    } else {
      const request = { ...body, stream: true as const, stream_options: { include_usage: true } };
      const pending: Partial<LLMCompletionPromise> & PromiseLike<unknown> = client.chat.completions.create(
        request,
        options,
      );
      // A stand-in client without `asResponse` has only the iterator to offer.
      if (lean && typeof pending.asResponse === 'function') {
        const response = await pending.asResponse();
        await readLeanStream(response, state, {
          controller,
          limits,
          idleMs: requestOptions?.timeout,
          apiError: apiErrorOf(base),
        });
      } else {
        const chunks = (await pending) as AsyncIterable<ChatCompletionChunk>;
        await readSdkStream(chunks, state, controller, requestOptions?.timeout);
      }
    }
  } catch (error) {
    state.error = error ?? new Error('Request failed');
  } finally {
    dispose();
  }
  // An abort may surface as a throw or, mid-stream, as a quiet end of the SDK's iterator: judge it by the signal.
  const reason: unknown = controller.signal.reason;
  if (reason instanceof StreamIdleTimeoutError) state.error = reason;
  else if (controller.signal.aborted || (state.error !== undefined && isAborted?.())) {
    state.error = undefined;
    state.finishReason = 'close';
  }
  return state.result();
}

/** Reads a stream through the SDK's own iterator, handing each chunk to `state`. */
async function readSdkStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  state: ResponseState,
  controller: AbortController,
  idleTimeoutMs: number | undefined,
): Promise<void> {
  const idle = startIdleTimer(controller, idleTimeoutMs);
  try {
    for await (const chunk of stream) {
      // A hook may have aborted the request: chunks the SDK already buffered must not reach hooks after that.
      if (controller.signal.aborted) return;
      const progress = state.progress;
      if (!state.receive(chunk)) {
        controller.abort();
        return;
      }
      // Only progress keeps the stream alive: empty chunks must not hold it open past the timeout.
      if (state.progress !== progress) idle?.refresh();
    }
    state.endStream();
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
