import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a resume token is bound to: the run, its sequence number and the calls it waits on. */
export type TokenSubject = { runId: string; seq: number; callIds: readonly string[] };

function mac(secret: string, subject: TokenSubject): Buffer {
  // Every field is prefixed with its length, and the list with its count: ids may hold any character (`\n` too), so
  // no two subjects sign the same text (a token for run `a` never verifies for run `a\n0`).
  const fields = [subject.runId, String(subject.seq), ...subject.callIds];
  const hmac = createHmac('sha256', secret).update(`agentcall resume token v2\n${fields.length}\n`);
  for (const field of fields) hmac.update(`${Buffer.byteLength(field)}:`).update(field);
  return hmac.digest();
}

/** An opaque token: `<seq>.<hmac>` in base64url. */
export function signResumeToken(secret: string, subject: TokenSubject): string {
  return Buffer.from(`${subject.seq}.${mac(secret, subject).toString('base64url')}`).toString('base64url');
}

/** The sequence number a token claims, or `undefined` when it is not a token at all. */
export function tokenSeq(token: string): number | undefined {
  const [seq, sig] = Buffer.from(token, 'base64url').toString().split('.');
  if (!sig || !/^\d+$/.test(seq)) return undefined;
  return Number(seq);
}

/** Whether `token` was signed by `secret` for exactly this subject (constant-time). */
export function verifyResumeToken(secret: string, token: string, subject: TokenSubject): boolean {
  const [seq, sig] = Buffer.from(token, 'base64url').toString().split('.');
  if (!sig || seq !== String(subject.seq)) return false;
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secret, subject);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
