import { MAX_ERROR_TEXT_LENGTH } from '../constants';

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
 * `{ error }`, `{ code }`), keeps only the first line (no stack trace), masks URLs and secrets, and caps the
 * length. Never throws, even on throwing getters or revoked proxies.
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
  return maskSecrets(firstLine(text)).slice(0, MAX_ERROR_TEXT_LENGTH) || fallback;
}

/**
 * Mask what must never reach a model or a log: URLs (credentials and query strings ride in them),
 * `sk-…` style API keys, bearer tokens, and `key=value` secrets.
 */
export function maskSecrets(text: string): string {
  return (
    text
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)]+/gi, (url) => `${url.slice(0, url.indexOf('://'))}://[redacted]`)
      .replace(/\b(?:sk|pk|rk|ak)-[A-Za-z0-9_-]{8,}/g, '[redacted-key]')
      .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
      // Not `\b`: `client_secret=` and `refresh_token=` put a word character before the name. An auth scheme
      // (`Basic`, `Digest`) goes with the credential after it, which would otherwise survive.
      .replace(
        /(?<![A-Za-z0-9])(api[_-]?key|access[_-]?token|token|secret|password|passwd|authorization)(["']?\s*[:=]\s*["']?)((?:Basic|Bearer|Digest|Token)\s+)?[^\s"',;}]+/gi,
        (_match, name: string, separator: string, scheme?: string) =>
          `${name}${separator}${scheme ? '[redacted] ' : ''}[redacted]`,
      )
      .replace(/\b(?:AKIA|ghp_|gho_|xox[abp]-)[A-Za-z0-9_-]{10,}/g, '[redacted-key]')
  );
}

function pickMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (error === null || error === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only values JSON cannot show reach here (functions, symbols, primitives)
  if (typeof error !== 'object' && typeof error !== 'function') return String(error);

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

function firstLine(text: string): string {
  const trimmed = text.trim();
  const newline = trimmed.indexOf('\n');
  return newline === -1 ? trimmed : trimmed.slice(0, newline).trim();
}
