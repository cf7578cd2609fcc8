/** Names longer than a decorated tool's may be (`TOOL_NAME_PATTERN` allows 64) are compared by their start only. */
const MAX_COMPARED_CHARS = 64;

/** Edits allowed between two names: one in three characters, at least one, and never all of the shorter name. */
function allowedEdits(a: string, b: string): number {
  return Math.min(Math.max(1, Math.floor(Math.max(a.length, b.length) / 3)), Math.min(a.length, b.length) - 1);
}

/**
 * The names in `candidates` closest to `name`, the closest first (at most `max`): those a few edits away
 * (Levenshtein, ignoring case), then those it is part of or that are part of it (three characters or more). Empty
 * when none is close: only names from `candidates` are ever returned, so nothing the model made up is echoed back
 * as a tool. Linear in the number of candidates, each compared on at most 64 × 64 steps.
 *
 * @example closestNames('translate', ['translate_text', 'get_weather']) // ['translate_text']
 *
 * @internal
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const wanted = name.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  if (wanted.length === 0 || max <= 0) return [];
  const scored = new Map<string, number>();
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || scored.has(candidate)) continue;
    const known = candidate.slice(0, MAX_COMPARED_CHARS).toLowerCase();
    const limit = allowedEdits(wanted, known);
    const distance = editDistance(wanted, known, limit);
    // Containment ranks after every near miss: `translate` → `translate_text` is a good guess, not a typo.
    if (distance <= limit) scored.set(candidate, distance);
    else if (Math.min(wanted.length, known.length) >= 3 && (known.includes(wanted) || wanted.includes(known)))
      scored.set(candidate, limit + 1);
  }
  return [...scored]
    .sort(([a, da], [b, db]) => da - db || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, max)
    .map(([candidate]) => candidate);
}

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (limit < 0 || Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length];
}
