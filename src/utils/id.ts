const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A short random id (not cryptographic): tool call ids for providers that send none, request ids. */
export function createId(length = 16): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return id;
}
