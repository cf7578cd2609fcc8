import type { RunSummary } from '../../src/devtools';
import { dayOf, filterRuns } from '../../src/devtools/ui/run-filter';

const run = (runId: string, extra: Partial<RunSummary>): RunSummary => ({
  runId,
  status: 'completed',
  turns: 1,
  inputTokens: 0,
  outputTokens: 0,
  startedAt: new Date(2026, 11, 7, 10, 0).getTime(),
  updatedAt: 0,
  toolCalls: 0,
  ...extra,
});

describe('the run list filter', () => {
  const runs = [
    run('refund-1', { model: 'gpt-4o-mini', status: 'waiting' }),
    run('report-2', { model: 'gpt-5', stopReason: 'budget' }),
    run('old-3', { model: 'gpt-5', startedAt: new Date(2026, 10, 30, 23, 59).getTime() }),
  ];
  const ids = (filter: Parameters<typeof filterRuns>[1]) => filterRuns(runs, filter).map((r) => r.runId);

  it('narrows by status, by every word of the text (id, model, stop reason) and by the day started', () => {
    expect(ids({})).toEqual(['refund-1', 'report-2', 'old-3']);
    expect(ids({ status: 'waiting' })).toEqual(['refund-1']);
    expect(ids({ text: 'GPT-5' })).toEqual(['report-2', 'old-3']);
    expect(ids({ text: 'gpt-5 budget' })).toEqual(['report-2']);
    expect(ids({ day: '2026-11-30' })).toEqual(['old-3']);
    expect(ids({ day: '2026-12-07', text: 're' })).toEqual(['refund-1', 'report-2']);
    expect(ids({ status: 'failed' })).toEqual([]);
    expect(dayOf(new Date(2026, 0, 2, 3, 4).getTime())).toBe('2026-01-02');
  });
});
