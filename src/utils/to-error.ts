import { getErrText } from '../text/error-text';

/**
 * `value` itself when it is an `Error`, else an `Error` whose message is its safe text and whose `cause` is
 * the value, so callers can rely on `.message` and `.name` whatever a request or a handler threw.
 */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(getErrText(value), { cause: value });
}
