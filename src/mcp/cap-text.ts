/**
 * Cut `text` to about `maxChars`, keeping its head and tail and saying how much was left out, the way the loop
 * caps a local tool's response (the core keeps its own copy internal).
 *
 * @internal
 */
export function capText(text: string, maxChars: number | undefined): string {
  if (maxChars === undefined || !(maxChars > 0) || text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - 60);
  const head = Math.ceil(budget * 0.6);
  const tail = budget - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n... [${omitted} characters truncated] ...\n${tail ? text.slice(-tail) : ''}`;
}
