import { isNativeError } from 'node:util/types';
import { APIConnectionError } from 'openai';
import { ModelConnectionError } from '../errors/model-connection.error';
import { StreamIdleTimeoutError } from '../errors/stream-idle-timeout.error';

/**
 * Error types and codes a provider sends in the body of a failure that is not the request's fault: Anthropic's
 * `overloaded_error` (HTTP 529, or an `error` event mid-stream), `api_error` and `rate_limit_error`; OpenAI's
 * `server_error` and `rate_limit_exceeded` (the codes of a Responses `response.failed`). An error reported inside a
 * stream has no HTTP status, so only its body tells.
 */
const RETRYABLE_KINDS: ReadonlySet<string> = new Set([
  'overloaded_error',
  'overloaded',
  'api_error',
  'server_error',
  'rate_limit_error',
  'rate_limit_exceeded',
]);

/**
 * Codes of a socket that failed under a response (Node's and undici's): the connection dropped mid-stream, which
 * `fetch` reports as a bare `TypeError('terminated')` with the socket's error as its `cause`.
 */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_SOCKET',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * Whether a model request's failure is worth another attempt (on the same model later, or on another one now):
 * rate limits (429), timeouts (408), server errors (5xx, 529 "overloaded" included), an overloaded, rate-limit or
 * server error reported inside a stream (`overloaded_error`, `server_error`, `rate_limit_exceeded`, or a numeric
 * code that is one of those statuses, as OpenRouter sends), connection failures and timeouts, a connection dropped
 * under a stream (`ECONNRESET`, undici's `UND_ERR_SOCKET`), and stalled streams.
 * Any other 4xx (400, 401, 403, 404, 422…) is the request's own fault and is not: another attempt would fail the
 * same way. Judged once the SDK's own retries are spent.
 *
 * @example
 * if (result.stopReason === 'error' && isRetryableModelError(result.error)) scheduleRetry(result.state);
 */
export function isRetryableModelError(error: unknown): boolean {
  if (StreamIdleTimeoutError.isInstance(error) || ModelConnectionError.isInstance(error)) return true;
  // `fetch`'s errors may come from another realm (a test runner's sandbox): not `instanceof` this realm's Error.
  if (!(error instanceof Error || isNativeError(error))) return false;
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return isRetryableStatus(status);
  // APIConnectionError (and its timeout subclass) carries no status; another openai copy fails `instanceof`.
  if (error instanceof APIConnectionError || /^APIConnection/.test(error.constructor.name)) return true;
  if (droppedConnection(error)) return true;
  // In a stream the failure comes as a body: the SDK's error carries its `type` and `code`, and keeps the body
  // (`error.error`), which on the Responses wire is the `error` event with the provider's error inside it.
  let part: unknown = error;
  for (let depth = 0; depth < 3 && typeof part === 'object' && part !== null; depth++) {
    if (isRetryableKind(part)) return true;
    part = (part as { error?: unknown }).error;
  }
  return false;
}

/** A socket error with a network code under `error`, a few `cause`s deep. */
function droppedConnection(error: Error): boolean {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 3 && typeof cause === 'object' && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function isRetryableKind({ type, code }: { type?: unknown; code?: unknown }): boolean {
  if (typeof type === 'string' && RETRYABLE_KINDS.has(type)) return true;
  if (typeof code === 'string') return RETRYABLE_KINDS.has(code);
  return typeof code === 'number' && isRetryableStatus(code);
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}
