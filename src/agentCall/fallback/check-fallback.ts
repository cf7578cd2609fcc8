import { InvalidFallbackError } from '../../errors/invalid-fallback.error';

const WIRES: ReadonlySet<unknown> = new Set(['auto', 'chat', 'responses']);

/**
 * Why the run's `fallback` list cannot be followed, checked before anything runs (a plain-JavaScript caller is not
 * held to its type): `undefined` when every entry names a model, and its `wire` and `client`, when given, are ones
 * a request can go through.
 *
 * @internal
 */
export function checkFallback(fallback: unknown): InvalidFallbackError | undefined {
  if (!Array.isArray(fallback))
    return new InvalidFallbackError('fallback', 'must be an array of { model, client?, wire? }');
  for (let i = 0; i < fallback.length; i++) {
    const entry: unknown = fallback[i];
    if (typeof entry !== 'object' || entry === null)
      return new InvalidFallbackError(`fallback[${i}]`, 'must be an object');
    const { model, client, wire, headers, sharedHeaders } = entry as Record<string, unknown>;
    if (typeof model !== 'string' || model === '')
      return new InvalidFallbackError(`fallback[${i}].model`, 'must be a non-empty string');
    if (wire !== undefined && !WIRES.has(wire))
      return new InvalidFallbackError(`fallback[${i}].wire`, "must be 'auto', 'chat' or 'responses'");
    if (client !== undefined && (typeof client !== 'object' || client === null))
      return new InvalidFallbackError(`fallback[${i}].client`, 'must be an openai SDK client');
    if (headers !== undefined && !isStringRecord(headers))
      return new InvalidFallbackError(`fallback[${i}].headers`, 'must be an object of string values');
    if (
      sharedHeaders !== undefined &&
      !(Array.isArray(sharedHeaders) && sharedHeaders.every((h) => typeof h === 'string'))
    )
      return new InvalidFallbackError(`fallback[${i}].sharedHeaders`, 'must be an array of header names');
  }
  return undefined;
}

function isStringRecord(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}
