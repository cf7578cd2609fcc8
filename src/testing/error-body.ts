import type { ServerResponse } from 'node:http';

/** The OpenAI error envelope; the SDK reads `message`, `type`, `code` and `param` from it. */
export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

/** Build an error body whose `type` matches what OpenAI sends for that status. */
export function errorBody(status: number | undefined, message: string, code: string | null = null): OpenAIErrorBody {
  return { error: { message, type: errorType(status), param: null, code } };
}

/**
 * Answer with an OpenAI-style error, which the SDK turns into an `APIError` subclass with this status.
 *
 * `retry` false adds `x-should-retry: false`: failures of the script itself (no turn left, bad path) must not
 * be retried by a client configured with retries, or each retry would consume or hide another turn.
 */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  options: { code?: string | null; retry?: boolean } = {},
): void {
  const payload = JSON.stringify(errorBody(status, message, options.code ?? null));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  };
  if (options.retry === false) headers['x-should-retry'] = 'false';
  res.writeHead(status, headers).end(payload);
}

function errorType(status: number | undefined): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status !== undefined && status < 500) return 'invalid_request_error';
  return 'server_error';
}
