import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ResponseTooLargeError, StreamIdleTimeoutError } from '../../src/errors';
import { isRetryableModelError } from '../../src/llm/retryable-error';
import * as core from '../../src';
import * as internal from '../../src/internal';

/** What the SDK builds from an HTTP error reply. */
const httpError = (status: number, body: object = { message: 'x' }) =>
  APIError.generate(status, { error: body }, undefined, new Headers());

/** What agentcall's stream readers build from an error sent inside a stream (no HTTP status). */
const streamError = (body: object) => new APIError(undefined, body, undefined, new Headers());

describe('isRetryableModelError', () => {
  it.each([408, 429, 500, 502, 503, 504, 529])('retries HTTP %i', (status) => {
    expect(isRetryableModelError(httpError(status))).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 413, 422])('does not retry HTTP %i', (status) => {
    expect(isRetryableModelError(httpError(status))).toBe(false);
  });

  it('goes by the status, not the body, when there is one', () => {
    expect(isRetryableModelError(httpError(400, { type: 'overloaded_error', message: 'x' }))).toBe(false);
  });

  it.each([
    ["Anthropic's overloaded_error", { type: 'overloaded_error', message: 'Overloaded' }],
    ["Anthropic's api_error", { type: 'api_error', message: 'Internal' }],
    ["OpenAI's server_error", { type: 'server_error', code: null, message: 'x' }],
    ["OpenAI's rate_limit_exceeded code (response.failed)", { code: 'rate_limit_exceeded', message: 'x' }],
    ["OpenRouter's numeric code", { code: 502, message: 'Provider returned error' }],
    [
      'a Responses error event wrapping a server error',
      { type: 'error', error: { type: 'server_error', code: 'x', message: 'x' } },
    ],
  ])('retries an in-stream error: %s', (_label, body) => {
    expect(isRetryableModelError(streamError(body))).toBe(true);
  });

  it.each([
    ['an invalid request', { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'x' }],
    ['a content filter', { code: 'content_filter', message: 'x' }],
    ['a numeric 400', { code: 400, message: 'x' }],
    [
      'a Responses error event wrapping an invalid request',
      { type: 'error', error: { type: 'invalid_request_error' } },
    ],
  ])('does not retry an in-stream error: %s', (_label, body) => {
    expect(isRetryableModelError(streamError(body))).toBe(false);
  });

  it('retries connection failures, timeouts and stalled streams', () => {
    expect(isRetryableModelError(new APIConnectionError({ message: 'refused' }))).toBe(true);
    expect(isRetryableModelError(new APIConnectionTimeoutError())).toBe(true);
    expect(isRetryableModelError(new StreamIdleTimeoutError(100))).toBe(true);
  });

  it('retries a connection dropped under a stream (fetch: TypeError terminated, the socket error as its cause)', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(isRetryableModelError(new TypeError('terminated', { cause: socket }))).toBe(true);
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isRetryableModelError(new TypeError('terminated', { cause: new Error('x', { cause: reset }) }))).toBe(true);
    expect(isRetryableModelError(new TypeError('terminated'))).toBe(false);
    expect(isRetryableModelError(new TypeError('bad', { cause: { code: 'ERR_INVALID_ARG_TYPE' } }))).toBe(false);
  });

  it('does not retry an abort, a response over its cap, or what is not an error', () => {
    expect(isRetryableModelError(new APIUserAbortError())).toBe(false);
    expect(isRetryableModelError(new ResponseTooLargeError(10, 'response'))).toBe(false);
    expect(isRetryableModelError({ status: 503 })).toBe(false);
    expect(isRetryableModelError(undefined)).toBe(false);
  });

  it('is exported by agentcall/internal (for the queue), not by agentcall', () => {
    expect(internal.isRetryableModelError).toBe(isRetryableModelError);
    expect('isRetryableModelError' in core).toBe(false);
  });
});
