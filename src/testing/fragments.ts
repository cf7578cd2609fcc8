/**
 * Cut `text` into pieces of `size` characters; `''` gives no pieces.
 *
 * Slicing by UTF-16 unit may split a surrogate pair across chunks; JSON escapes lone surrogates, so the client
 * still reassembles the original string, which is exactly what a chunk-accumulating client must handle.
 */
export function splitText(text: string, size: number): string[] {
  if (text.length <= size) return text === '' ? [] : [text];
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** Cut tool-call arguments into about three fragments, as real models stream them piecemeal. */
export function splitArguments(args: string): string[] {
  return splitText(args, Math.max(1, Math.ceil(args.length / 3)));
}
