import { createHmac, timingSafeEqual } from 'node:crypto';
import { RunStateSignatureError } from '../../errors/run-state-signature.error';
import type { RunState } from './run-state';

/** Binds a signature to this use and format, so a MAC the app makes with the same secret for something else never passes. */
const DOMAIN = 'agentcall run state v1\n';

/**
 * The state with its `signature`: an HMAC-SHA256 over the canonical JSON of every other field. Canonical means keys
 * sorted at every level, values as `JSON.stringify` writes them, so the signature survives a JSON round trip and a
 * store that reorders keys (a `jsonb` column).
 *
 * @internal
 */
export function signRunState(state: RunState, secret: string): RunState {
  const { signature: _, ...fields } = state;
  return { ...fields, signature: mac(fields, secret).toString('base64url') };
}

/**
 * Throw a {@link RunStateSignatureError} unless `state.signature` is the one `secret` makes over the rest of the
 * state (compared in constant time).
 *
 * @internal
 */
export function verifyRunState(state: RunState, secret: string): void {
  const { signature, ...fields } = state;
  if (signature === undefined) throw new RunStateSignatureError('missing');
  const given = Buffer.from(signature, 'base64url');
  let expected: Buffer;
  try {
    expected = mac(fields, secret);
  } catch {
    // Nesting too deep to serialise: not a state this secret could have signed.
    throw new RunStateSignatureError('forged');
  }
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new RunStateSignatureError('forged');
}

/**
 * The props with an `onCheckpoint` that saves signed states.
 *
 * @internal
 */
export function signedCheckpoints<P extends { onCheckpoint?: (state: RunState) => void | Promise<void> }>(
  props: P,
  secret: string,
): P {
  const save = props.onCheckpoint;
  return save ? { ...props, onCheckpoint: (state: RunState) => save(signRunState(state, secret)) } : props;
}

function mac(fields: Omit<RunState, 'signature'>, secret: string): Buffer {
  return createHmac('sha256', secret)
    .update(DOMAIN + JSON.stringify(fields, sortedKeys))
    .digest();
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  // No prototype: an own `__proto__` key stays a key (and is signed) instead of replacing the prototype.
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}
