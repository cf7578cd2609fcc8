import { maskSecrets } from '../../internal';

/** Characters of `RunRecord.error.message`; the name is cut to 200. */
export const MAX_ERROR_MESSAGE_CHARS = 2000;
/** Cut before masking with this much to spare, so a secret crossing the cut is masked whole (and cost is bounded). */
const MASK_MARGIN = 1024;

/**
 * A model-safe summary of an error for the run record: secrets masked the way the core masks them, the message cut
 * to 2,000 characters (an error can carry a whole response body, or a connection string).
 */
export function errorSummary(error: unknown): { name: string; message: string; status?: number } {
  if (!(error instanceof Error)) return { name: 'Error', message: safeText(String(error), MAX_ERROR_MESSAGE_CHARS) };
  const status = (error as { status?: unknown }).status;
  const name = error.name === 'Error' ? error.constructor.name : error.name;
  return {
    name: safeText(String(name), 200),
    message: safeText(String(error.message), MAX_ERROR_MESSAGE_CHARS),
    ...(typeof status === 'number' ? { status } : {}),
  };
}

function safeText(text: string, maxChars: number): string {
  return maskSecrets(text.slice(0, maxChars + MASK_MARGIN)).slice(0, maxChars);
}

/** `error` as an Error, for a throw. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
