/** Milliseconds as the page shows them. */
export function ms(value: number | undefined): string {
  if (value === undefined) return '–';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
}

/** A token count with thousands separators. */
export function tokens(value: number | undefined): string {
  return value === undefined ? '–' : value.toLocaleString('en-US');
}

/** A cost, or a dash without a price. */
export function cost(value: number | undefined): string {
  return value === undefined ? '–' : `$${value.toFixed(value < 0.01 ? 5 : 3)}`;
}

/** A time of day. */
export function clock(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString('en-GB', { hour12: false });
}

/** Pretty JSON when `text` is JSON, else `text`. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
