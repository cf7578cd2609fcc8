/**
 * Cut `text` to about `maxChars`, keeping its head and tail (where results and errors usually sit) and
 * saying how much was left out, so the model knows the text is partial.
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - 60);
  const head = Math.ceil(budget * 0.6);
  const tail = budget - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n... [${omitted} characters truncated] ...\n${tail ? text.slice(-tail) : ''}`;
}
