import OpenAI from 'openai';
import { MissingCredentialsError } from '../errors/missing-credentials.error';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
} from 'openai/resources/chat/completions';
import type {
  Response as ResponsesResponse,
  ResponseCreateParams,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';

/** The caller's own OpenAI-compatible account: used when no client is injected. */
export type UserKey = {
  /** Base URL of an OpenAI-compatible API, e.g. `http://localhost:11434/v1` for Ollama. */
  baseUrl?: string;
  /** API key; ignored by servers that need none. */
  key?: string;
};

/**
 * The part of an openai SDK client agentcall calls: `chat.completions.create`, and `responses.create` for the
 * Responses wire (a client without it can only use the chat wire). `create` may also hand over the raw HTTP
 * response (`asResponse`), and takes the per-request options agentcall passes: the signal, the SDK's timeout for
 * the response headers (milliseconds) and extra headers.
 *
 * A structural type rather than the SDK's `OpenAI` class on purpose: that class has `#private` members, so
 * the CommonJS and ESM declarations of it (and those of openai 6 and 7) are unrelated types to the
 * compiler. Any `new OpenAI()` a user builds, from either module system and either major, fits this shape.
 */
export interface LLMClient {
  chat: {
    completions: {
      create(
        body: ChatCompletionCreateParams,
        options?: { signal?: AbortSignal; timeout?: number; headers?: Record<string, string> },
      ): PromiseLike<AsyncIterable<ChatCompletionChunk> | ChatCompletion> & { asResponse(): Promise<Response> };
    };
  };
  responses?: {
    create(
      body: ResponseCreateParams,
      options?: { signal?: AbortSignal; timeout?: number; headers?: Record<string, string> },
    ): PromiseLike<AsyncIterable<ResponseStreamEvent> | ResponsesResponse> & { asResponse(): Promise<Response> };
  };
}

/** The per-request options agentcall passes to `create` (one shape for both wires). */
export type LLMRequestOptions = NonNullable<Parameters<LLMClient['chat']['completions']['create']>[1]>;

/** What `chat.completions.create` returns: a chunk stream (streamed request) or a whole completion. */
export type LLMCompletionPromise = ReturnType<LLMClient['chat']['completions']['create']>;

/** What `responses.create` returns: an event stream (streamed request) or a whole response. */
export type LLMResponsesPromise = ReturnType<NonNullable<LLMClient['responses']>['create']>;

/**
 * The client a request goes through: the injected one, else one built from `userKey`, else from
 * `OPENAI_API_KEY` / `OPENAI_BASE_URL`; with no key anywhere, the error that says where one goes (the SDK's own
 * constructor would throw "Missing credentials" naming options agentcall does not take).
 */
export function resolveClient(client?: LLMClient, userKey?: UserKey): LLMClient | MissingCredentialsError {
  if (client) return client;
  const apiKey = userKey?.key || process.env.OPENAI_API_KEY;
  if (!apiKey) return new MissingCredentialsError();
  return new OpenAI({ apiKey, baseURL: userKey?.baseUrl ?? process.env.OPENAI_BASE_URL ?? undefined });
}
