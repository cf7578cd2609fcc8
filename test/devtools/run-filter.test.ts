import type { RunSummary } from '../../src/devtools';
import { dayOf, filterRuns, toolNamesOf } from '../../src/devtools/ui/run-filter';

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

describe('the run list filter by tool name', () => {
  const runs = [
    run('refund-1', { tools: ['refund', 'lookup'] }),
    run('report-2', { tools: ['lookup_all'] }),
    run('quiet-3', {}),
  ];
  const ids = (filter: Parameters<typeof filterRuns>[1]) => filterRuns(runs, filter).map((r) => r.runId);

  it('keeps the runs that called a tool of that exact name, beside the other filters', () => {
    expect(ids({ tool: 'lookup' })).toEqual(['refund-1']);
    expect(ids({ tool: 'lookup_all' })).toEqual(['report-2']);
    expect(ids({ tool: 'refund', text: 'report' })).toEqual([]);
    expect(ids({ tool: '' })).toEqual(['refund-1', 'report-2', 'quiet-3']);
    expect(ids({ tool: 'ghost' })).toEqual([]);
    expect(toolNamesOf(runs)).toEqual(['lookup', 'lookup_all', 'refund']);
  });
});
