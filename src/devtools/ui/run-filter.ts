import type { DevtoolsRunStatus, RunSummary } from '../types';

/** What the run list is narrowed to: every part is optional, and a run must match each part given. */
export type RunFilter = {
  status?: DevtoolsRunStatus | '';
  /** Words that must each appear in the run's id, model or stop reason (any case). */
  text?: string;
  /** `YYYY-MM-DD`: runs started on that day (local time). */
  day?: string;
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
    const haystack = [run.runId, run.model ?? '', run.stopReason ?? ''].join(' ').toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
