import { APIConnectionError } from 'openai';
import { StreamIdleTimeoutError } from '../index';

/**
 * Whether a model error is worth another attempt from the last checkpoint: rate limits (429), server errors
 * (5xx, once the SDK's own retries are spent), connection failures and stalled streams. A 4xx is the request's
 * own fault and fails the run.
 */
export function isRetryableModelError(error: unknown): boolean {
  if (StreamIdleTimeoutError.isInstance(error)) return true;
  if (!(error instanceof Error)) return false;
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return status === 429 || status === 408 || status >= 500;
  // APIConnectionError (and its timeout subclass) carries no status; another openai copy fails `instanceof`.
  return error instanceof APIConnectionError || /^APIConnection/.test(error.constructor.name);
}

/** A model-safe summary of an error for the run record. */
export function errorSummary(error: unknown): { name: string; message: string; status?: number } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const status = (error as { status?: unknown }).status;
  const name = error.name === 'Error' ? error.constructor.name : error.name;
  return { name, message: error.message, ...(typeof status === 'number' ? { status } : {}) };
}

/** `error` as an Error, for a throw. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
