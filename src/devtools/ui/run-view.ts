import { useEffect, useState } from 'preact/hooks';
import type { RunPage } from '../types';
import { exportUrl, fetchRun, postAction } from './client';
import { cost, ms, tokens } from './format';
import { html } from './html';
import { Pending } from './pending';
import { Timeline } from './timeline';
import { Waterfall } from './waterfall';

/** The request on this page whose text is the run's answer (the last one, when its text is the answer). */
function answerIndex(page: RunPage): number | undefined {
  if (page.text === undefined || !page.text) return undefined;
  const last = [...page.items].reverse().find((item) => item.kind === 'request' && !item.agentPath);
  return last?.kind === 'request' && last.text.text === page.text ? last.index : undefined;
}

/** Timeline entries per page. */
const PAGE = 100;

/** One run: its numbers, its pending calls, actions, and a page of its timeline (the newest, unless paged back). */
export function RunView({ runId, version }: { runId: string; version: number }) {
  const [page, setPage] = useState<RunPage | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  /** `undefined`: follow the newest entries. */
  const [offset, setOffset] = useState<number | undefined>(undefined);
  const [refresh, setRefresh] = useState(0);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    let live = true;
    const load = async () => {
      const next = await fetchRun(runId, offset ?? -1, PAGE);
      if (live) {
        setPage(next);
        setError(undefined);
      }
    };
    load().catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [runId, version, offset, refresh]);

  if (!page) return html`<p>${error ?? 'Loading…'}</p>`;
  const { summary } = page;
  const cancel = () => {
    setConfirming(false);
    postAction(runId, 'cancel', {}).then(
      () => setRefresh((n) => n + 1),
      (e: Error) => setError(e.message),
    );
  };
  const last = page.offset + page.items.length;
  /** Whether anything of the run's work is known: before it, what was asked stands in for the timeline. */
  const started = page.total > page.items.length || page.items.some((item) => item.kind !== 'status');
  return html`<section class="run" data-testid="run-view">
    <h1><a href="#/">Runs</a> / <span data-testid="run-id">${runId}</span></h1>
    <div class="summary">
      <span class=${`status status-${summary.status}`} data-testid="run-status">${summary.status}</span>
      <span>model ${summary.model ?? '–'}</span>
      <span data-testid="run-turns">${summary.turns} turns</span>
      <span>${summary.toolCalls} tool calls</span>
      <span>tokens ${tokens(summary.inputTokens)} / ${tokens(summary.outputTokens)}</span>
      <span>cost ${cost(summary.cost)}</span>
      <span>${ms(summary.updatedAt - summary.startedAt)}</span>
      ${summary.stopReason && html`<span data-testid="stop-reason">stopped: ${summary.stopReason}</span>`}
    </div>
    <div class="actions">
      <a class="button" data-testid="export" href=${exportUrl(runId)} download>Export as a Jest test</a>
      <a class="button" data-testid="export-vitest" href=${exportUrl(runId, 'vitest')} download
        >Export as a Vitest test</a
      >
      ${
        page.canCancel &&
        (confirming
          ? html`<span class="confirm" data-testid="cancel-confirm">
              Cancel this run? It stops where it is and cannot go on.
              <button data-testid="confirm-cancel" onClick=${cancel}>Yes, cancel it</button>
              <button data-testid="keep-running" onClick=${() => setConfirming(false)}>No</button>
            </span>`
          : html`<button data-testid="cancel" onClick=${() => setConfirming(true)}>Cancel run</button>`)
      }
    </div>
    ${error && html`<div class="error">${error}</div>`}
    ${page.error && html`<div class="error" data-testid="run-error">${page.error}</div>`}
    <${Pending}
      runId=${runId}
      pending=${page.pending}
      canDecide=${page.canDecide}
      onDone=${() => setRefresh((n) => n + 1)}
    />
    ${
      summary.input !== undefined &&
      !started &&
      html`<div class="long-text">
        <div class="label">Input</div>
        <pre data-testid="run-input">${summary.input}</pre>
      </div>`
    }
    ${
      summary.status === 'queued' &&
      !started &&
      html`<p class="note" data-testid="queued-note">Queued: no worker has taken this run yet.</p>`
    }
    <${Waterfall} items=${page.items} until=${summary.updatedAt} waiting=${page.pending.map((p) => p.key)} />
    <div class="pager" data-testid="pager">
      <button disabled=${page.offset === 0} onClick=${() => setOffset(Math.max(0, page.offset - PAGE))}>Older</button>
      <span>entries ${page.total ? page.offset + 1 : 0}–${last} of ${page.total}</span>
      <button disabled=${last >= page.total} onClick=${() => setOffset(last + PAGE >= page.total ? undefined : last)}>
        Newer
      </button>
      ${offset !== undefined && html`<button onClick=${() => setOffset(undefined)}>Follow newest</button>`}
    </div>
    <${Timeline}
      runId=${runId}
      items=${page.items}
      waiting=${page.pending.map((p) => p.key)}
      status=${summary.status}
      answerIndex=${answerIndex(page)}
    />
    ${
      page.text !== undefined &&
      html`<div class="final">
        <div class="label">Answer</div>
        <pre data-testid="answer">${page.text}</pre>
      </div>`
    }
  </section>`;
}
