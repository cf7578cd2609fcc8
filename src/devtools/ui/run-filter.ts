import type { DevtoolsRunStatus, RunSummary } from '../types';

/** What the run list is narrowed to: every part is optional, and a run must match each part given. */
export type RunFilter = {
  status?: DevtoolsRunStatus | '';
  /** Words that must each appear in the run's id, model or stop reason (any case). */
  text?: string;
  /** `YYYY-MM-DD`: runs started on that day (local time). */
  day?: string;
  /** Runs that called the tool of this exact name (their agents' calls included). */
  tool?: string;
};

/** The day a run started, as `YYYY-MM-DD` in local time. */
export function dayOf(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The runs that match `filter`, in their order. */
export function filterRuns(runs: readonly RunSummary[], filter: RunFilter): RunSummary[] {
  const words = (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return runs.filter((run) => {
    if (filter.status && run.status !== filter.status) return false;
    if (filter.day && dayOf(run.startedAt) !== filter.day) return false;
    if (filter.tool && !run.tools?.includes(filter.tool)) return false;
    const haystack = [run.runId, run.model ?? '', run.stopReason ?? ''].join(' ').toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** The names of the tools the runs called, each once, sorted: the choices of the tool filter. */
export function toolNamesOf(runs: readonly RunSummary[]): string[] {
  return [...new Set(runs.flatMap((run) => run.tools ?? []))].sort();
}
