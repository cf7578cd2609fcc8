import { InvalidWireError } from '../../errors/invalid-wire.error';
import type { LLMClient, LLMRequestOptions } from '../client';
import type { ChunkReceiver } from '../stream/lean-stream';
import type { LLMRequestBody, Wire } from '../response/response-types';
import type { RequestAttempts } from '../request-attempts';
import type { ResponseState } from '../response/response-state';
import type { APIErrorClass } from './responses/response-reader';

export type { Wire } from '../response/response-types';

/** Where one wire's parsed stream events and whole responses go. */
export type WireReceiver<Chunk> = ChunkReceiver<Chunk> & {
  /** A whole (non-streamed) response body. */
  consume(whole: unknown): void;
};

/**
 * One wire: how a chat-shaped request goes out over it, and how what comes back reaches a {@link ResponseState}.
 * `createLLMResponse` drives both the same way (limits, parsers, abort, idle timeout); nothing above it learns which
 * one ran.
 *
 * @internal
 */
export interface WireProtocol<Chunk = unknown> {
  readonly name: 'chat' | 'responses';
  /** The path of its endpoint under the client's base URL (`/chat/completions`, `/responses`). */
  readonly path: string;
  /**
   * Sends the request through `client`: a promise of the event stream (`stream`) or of the whole response, with
   * `asResponse` on a real SDK client. The body it builds goes through `attempts.track`, so the SDK's retries are
   * counted. Throws, before anything is sent, on a body the wire cannot carry.
   */
  send(
    client: LLMClient,
    body: LLMRequestBody,
    stream: boolean,
    options: LLMRequestOptions | undefined,
    attempts: RequestAttempts,
  ): PromiseLike<unknown> & { asResponse?: () => Promise<Response> };
  /** The receiver of this request's stream events or whole response. */
  receiver(state: ResponseState, apiError: APIErrorClass, headers?: Headers): WireReceiver<Chunk>;
  /** The error a failed request comes back with (the request's own, or one that says what to do about it). */
  failure(error: unknown): unknown;
}

/** Whether `client` talks to OpenAI's own API (its `baseURL`), where `'auto'` picks the Responses wire. */
export function isOpenAIApi(client: object): boolean {
  const url: unknown = Reflect.get(client, 'baseURL');
  return typeof url === 'string' && (url === 'https://api.openai.com' || url.startsWith('https://api.openai.com/'));
}

const WIRES: ReadonlySet<unknown> = new Set<Wire>(['auto', 'chat', 'responses']);

/**
 * Why `wire` cannot be followed (a value from configuration is not held to the type): `undefined` for a known wire
 * or none, else the error to end the run with before any request, never a silent fall back to chat.
 */
export function invalidWire(wire: unknown): InvalidWireError | undefined {
  return wire === undefined || WIRES.has(wire) ? undefined : new InvalidWireError(wire);
}

/** The wire a request goes over: `wire`, or for `'auto'` the one `client`'s base URL calls for. */
export function chooseWire(wire: Wire | undefined, client: object): 'chat' | 'responses' {
  if (wire === 'chat' || wire === 'responses') return wire;
  return isOpenAIApi(client) && hasResponses(client) ? 'responses' : 'chat';
}

/** Whether `client` has `responses.create` (an openai SDK client does; a stand-in may not). */
export function hasResponses(client: object): boolean {
  const responses: unknown = Reflect.get(client, 'responses');
  return typeof responses === 'object' && responses !== null && typeof Reflect.get(responses, 'create') === 'function';
}
