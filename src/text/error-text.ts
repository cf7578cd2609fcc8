import { MAX_ERROR_TEXT_LENGTH } from '../constants';
import { firstLineSafeText } from './model-text';

export { maskSecrets } from './mask-secrets';

const MESSAGE_PATHS: readonly (readonly string[])[] = [
  ['response', 'data', 'message'],
  ['response', 'message'],
  ['message'],
  ['response', 'data', 'msg'],
  ['response', 'msg'],
  ['msg'],
  ['error', 'message'],
  ['error'],
  ['code'],
];

/**
 * The short, safe text of anything thrown, for a model or a log line.
 *
 * Takes the first message found in common error shapes (Error, axios/fetch responses, `{ msg }`,
 * `{ error }`, `{ code }`), keeps only the first line (no stack trace, whichever line break ends it), cuts it,
 * masks URLs and secrets, and caps the length. Linear in the message's length; never throws, even on throwing
 * getters or revoked proxies.
 *
 * @example getErrText(new Error('GET https://user:pw@api.x/v1 failed')) // 'GET https://[redacted] failed'
 */
export function getErrText(error: unknown, fallback = 'Unknown error'): string {
  let text: string;
  try {
    text = pickMessage(error) ?? fallback;
  } catch {
    text = fallback;
  }
  return firstLineSafeText(text, MAX_ERROR_TEXT_LENGTH) || fallback;
}

function pickMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (error === null || error === undefined) return undefined;
  if (typeof error === 'number' || typeof error === 'boolean' || typeof error === 'bigint') return String(error);
  if (typeof error === 'symbol') return error.toString();

  const first = readPath(error, ['errors', '0', 'message']);
  for (const path of MESSAGE_PATHS) {
    const value = readPath(error, path);
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  if (typeof first === 'string' && first) return first;
  return undefined;
}

function readPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || (typeof current !== 'object' && typeof current !== 'function')) return undefined;
    try {
      current = (current as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  }
  return current;
}
