/** What a JSON value may be cut to before the page gets it. */
export type CapOptions = {
  /** Characters of each string; the rest is counted, not sent. */
  maxString: number;
  /** Values in all; past it, what is left of an array or object is counted, not sent. */
  maxNodes: number;
  /** Levels of nesting; deeper values are counted, not sent. */
  maxDepth: number;
};

/**
 * `value` as plain JSON, cut to fit `options`: long strings end in `… (N more characters)`, and entries past the
 * node or depth limit become one string that says how many were left out. A request body carries the whole history
 * and what the model wrote, so the page gets a bounded copy whatever the run did, in one pass that visits each
 * value once at most.
 */
export function cappedJson(value: unknown, options: CapOptions): unknown {
  let budget = options.maxNodes;
  const cut = (v: unknown, depth: number): unknown => {
    budget--;
    if (typeof v === 'string')
      return v.length > options.maxString
        ? `${v.slice(0, options.maxString)}… (${(v.length - options.maxString).toLocaleString('en-US')} more characters)`
        : v;
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
    if (typeof v !== 'object') return null;
    const entries: [string, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [String(i), item])
      : Object.entries(v as Record<string, unknown>);
    if (depth >= options.maxDepth) return `… (${entries.length} entries, nested too deep to show)`;
    const out: [string, unknown][] = [];
    for (const [key, item] of entries) {
      if (budget <= 0) {
        out.push([Array.isArray(v) ? String(out.length) : '…', `… (${entries.length - out.length} more entries)`]);
        break;
      }
      if (item !== undefined && typeof item !== 'function') out.push([key, cut(item, depth + 1)]);
    }
    return Array.isArray(v) ? out.map(([, item]) => item) : Object.fromEntries(out);
  };
  return cut(value, 0);
}
