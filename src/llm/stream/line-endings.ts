const CR = 13;
const CR_LINE_ENDS = /\r\n?/g;

/**
 * Makes every SSE line end a `\n` before the parser sees it: `\r\n`, and a lone `\r` (which the SSE format allows).
 * eventsource-parser looks for the next `\n` again at every line of a piece that holds a `\r`, so a piece of lone-`\r`
 * lines costs time quadratic in its length; with `\n` alone it takes its linear path. A `\r` that ends a piece is
 * held for the next one, as the parser itself holds it, so a `\r\n` split across two reads stays one line end and
 * the events dispatched are the same.
 *
 * @internal
 */
export class LineEndings {
  private heldCr = false;

  /** `text` with its line ends made `\n`; costs one native search when it has no `\r`. */
  normalize(text: string): string {
    let piece = this.heldCr ? `\r${text}` : text;
    this.heldCr = piece.charCodeAt(piece.length - 1) === CR;
    if (this.heldCr) piece = piece.slice(0, -1);
    return piece.indexOf('\r') === -1 ? piece : piece.replace(CR_LINE_ENDS, '\n');
  }
}
