/**
 * A documentation block is an excerpt of a compiled file: its lines appear in the file in order, and wherever it
 * leaves code out it says so with a line `// …`, so a reader never copies a call that silently lacks a required
 * field. Blank lines and comment lines may be left out unmarked: they change nothing a compiler sees.
 */
export const OMISSION = '// …';

/** Collapse whitespace, so indentation and alignment do not matter. */
export const normalize = (line: string): string => line.replace(/\s+/g, ' ').trim();

const isOmission = (line: string): boolean => normalize(line).startsWith(OMISSION);
const isCode = (line: string): boolean => line !== '' && !/^(\/\/|\/\*|\*)/.test(line);

/** What an excerpt gets wrong: lines the file lacks (or has in another order), and code left out unmarked. */
export type ExcerptReport = {
  /** Block lines not found in the file after the lines before them. */
  missing: string[];
  /** Block lines before which the file has code the block leaves out with no `// …` in between. */
  unmarked: string[];
};

type Step = { at: number; cost: number; previous: Step | undefined; line: string; unmarkedBefore: boolean };

/**
 * Matches `block` (lines as the file writes them, already mapped by the caller) against `file`, choosing among a
 * line's occurrences the match with the fewest unmarked omissions: a closing brace or a decorator that occurs
 * often must not make a gap where the author left none.
 */
export function checkExcerpt(block: readonly string[], file: readonly string[]): ExcerptReport {
  const lines = file.map(normalize);
  const where = new Map<string, number[]>();
  lines.forEach((line, index) => where.set(line, [...(where.get(line) ?? []), index]));
  // A code line between two matched lines is an omission.
  const codeBefore = lines.map((line) => (isCode(line) ? 1 : 0));
  for (let i = 1; i < codeBefore.length; i++) codeBefore[i] += codeBefore[i - 1];
  const codeBetween = (from: number, to: number) => codeBefore[to - 1] - codeBefore[from] > 0;

  const missing: string[] = [];
  let steps: Step[] = [];
  let marked = false;
  for (const raw of block) {
    const line = normalize(raw);
    if (line === '') continue;
    if (isOmission(line)) {
      marked = true;
      continue;
    }
    const next: Step[] = [];
    for (const at of where.get(line) ?? []) {
      let best: Step | undefined;
      if (steps.length === 0) best = { at, cost: 0, previous: undefined, line, unmarkedBefore: false };
      for (const step of steps) {
        if (step.at >= at) continue;
        const unmarkedBefore = !marked && codeBetween(step.at, at);
        const cost = step.cost + (unmarkedBefore ? 1 : 0);
        if (!best || cost < best.cost) best = { at, cost, previous: step, line, unmarkedBefore };
      }
      if (best) next.push(best);
    }
    if (next.length === 0) missing.push(line);
    else {
      steps = next;
      marked = false;
    }
  }
  const unmarked: string[] = [];
  let step = steps.reduce<Step | undefined>((best, s) => (!best || s.cost < best.cost ? s : best), undefined);
  for (; step; step = step.previous) if (step.unmarkedBefore) unmarked.unshift(step.line);
  return { missing, unmarked };
}
