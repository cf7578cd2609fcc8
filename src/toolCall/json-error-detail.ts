/**
 * What JSON5 found wrong and where, as `not valid JSON: <what> at line L, column C`, the position counted in
 * `raw`, the text the model sent (prose or indentation before the JSON included), 1-based, as JSON5 counts it
 * (lines end at `\n`, columns in UTF-16 units). `sliceStart` is where the parsed slice begins in `raw`.
 * Without a position on the error, `not valid JSON` alone.
 *
 * @example jsonErrorDetail(json5Error, 'x {"a": ?}', 2) // "not valid JSON: invalid character '?' at line 1, column 9"
 *
 * @internal
 */
export function jsonErrorDetail(error: unknown, raw: string, sliceStart: number): string {
  const { lineNumber, columnNumber, message } = (error ?? {}) as {
    lineNumber?: unknown;
    columnNumber?: unknown;
    message?: unknown;
  };
  if (typeof lineNumber !== 'number' || typeof columnNumber !== 'number' || typeof message !== 'string') {
    return 'not valid JSON';
  }
  let offset = sliceStart;
  for (let line = 1; line < lineNumber; line++) {
    const end = raw.indexOf('\n', offset);
    if (end === -1) break;
    offset = end + 1;
  }
  offset += columnNumber - 1;
  const lineStart = raw.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let i = raw.indexOf('\n'); i !== -1 && i < lineStart; i = raw.indexOf('\n', i + 1)) line++;
  // JSON5 words it `JSON5: invalid character 'x' at 1:7`; the position is restated in the model's text.
  const what = message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
  return `not valid JSON: ${what} at line ${line}, column ${offset - lineStart + 1}`;
}
