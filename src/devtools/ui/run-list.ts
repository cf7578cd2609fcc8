import { useState } from 'preact/hooks';
import type { DevtoolsRunStatus, RunSummary } from '../types';
import { clock, cost, ms, tokens } from './format';
import { html } from './html';
import { dayOf, filterRuns, toolNamesOf, type RunFilter } from './run-filter';

const STATUSES: DevtoolsRunStatus[] = ['queued', 'running', 'waiting', 'completed', 'failed', 'cancelled'];

/** The live list of runs, narrowed by status, words (id, model, stop reason), a tool called and the day started. */
export function RunList({ runs }: { runs: RunSummary[] }) {
  const [filter, setFilter] = useState<RunFilter>({});
  if (!runs.length) return html`<p class="empty" data-testid="no-runs">No runs yet.</p>`;
  const shown = filterRuns(runs, filter);
  const set = (part: Partial<RunFilter>) => setFilter({ ...filter, ...part });
  const value = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
  return html`<div class="filters" data-testid="run-filters">
      <input
        data-testid="filter-text"
        placeholder="Search id, model, stop reason"
        value=${filter.text ?? ''}
        onInput=${(e: Event) => set({ text: value(e) })}
      />
      <select data-testid="filter-status" onChange=${(e: Event) => set({ status: value(e) as DevtoolsRunStatus })}>
        <option value="">any status</option>
        ${STATUSES.map((status) => html`<option value=${status}>${status}</option>`)}
      </select>
      <select data-testid="filter-tool" onChange=${(e: Event) => set({ tool: value(e) })}>
        <option value="">any tool</option>
        ${toolNamesOf(runs).map((name) => html`<option value=${name}>${name}</option>`)}
      </select>
      <input type="date" data-testid="filter-day" onInput=${(e: Event) => set({ day: value(e) })} />
      <span class="note">${shown.length} of ${runs.length}</span>
    </div>
    <table class="runs" data-testid="run-list">
      <thead>
        <tr>
          <th>Run</th>
          <th>Status</th>
          <th>Model</th>
          <th>Turns</th>
          <th>Tool calls</th>
          <th>Tokens in / out</th>
          <th>Cost</th>
          <th>Started</th>
          <th>Duration</th>
          <th>Stop reason</th>
        </tr>
      </thead>
      <tbody>
        ${shown.map(
          (run) =>
            html`<tr key=${run.runId} data-testid="run-row" data-run-id=${run.runId}>
              <td><a href=${`#/run/${encodeURIComponent(run.runId)}`}>${run.runId}</a></td>
              <td><span class=${`status status-${run.status}`}>${run.status}</span></td>
              <td>${run.model ?? '–'}</td>
              <td>${run.turns}</td>
              <td>${run.toolCalls}</td>
              <td>${tokens(run.inputTokens)} / ${tokens(run.outputTokens)}</td>
              <td>${cost(run.cost)}</td>
              <td>${dayOf(run.startedAt)} ${clock(run.startedAt)}</td>
              <td>${ms(run.updatedAt - run.startedAt)}</td>
              <td>${run.stopReason ?? '–'}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}
