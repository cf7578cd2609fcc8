import type { RunSummary } from '../types';
import { clock, cost, ms, tokens } from './format';
import { html } from './html';

/** The live list of runs. */
export function RunList({ runs }: { runs: RunSummary[] }) {
  if (!runs.length) return html`<p class="empty" data-testid="no-runs">No runs yet.</p>`;
  return html`<table class="runs" data-testid="run-list">
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
      ${runs.map(
        (run) =>
          html`<tr key=${run.runId} data-testid="run-row" data-run-id=${run.runId}>
            <td><a href=${`#/run/${encodeURIComponent(run.runId)}`}>${run.runId}</a></td>
            <td><span class=${`status status-${run.status}`}>${run.status}</span></td>
            <td>${run.model ?? '–'}</td>
            <td>${run.turns}</td>
            <td>${run.toolCalls}</td>
            <td>${tokens(run.inputTokens)} / ${tokens(run.outputTokens)}</td>
            <td>${cost(run.cost)}</td>
            <td>${clock(run.startedAt)}</td>
            <td>${ms(run.updatedAt - run.startedAt)}</td>
            <td>${run.stopReason ?? '–'}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
