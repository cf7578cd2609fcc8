import type { RequestItem, StatusItem, TimelineItem, ToolItem } from '../types';
import { clock, ms, tokens } from './format';
import { html } from './html';
import { LongText } from './long-text';

/** One run's timeline entries: requests, tool calls and changes of status, in order. */
export function Timeline({ runId, items, waiting }: { runId: string; items: TimelineItem[]; waiting: string[] }) {
  return html`<ol class="timeline" data-testid="timeline">
    ${items.map((item) =>
      item.kind === 'request'
        ? html`<${Request} key=${item.index} runId=${runId} item=${item} />`
        : item.kind === 'tool'
          ? html`<${Tool} key=${item.index} runId=${runId} item=${item} waiting=${waiting.includes(item.callId)} />`
          : html`<${Status} key=${item.index} item=${item} />`,
    )}
  </ol>`;
}

function Request({ runId, item }: { runId: string; item: RequestItem }) {
  return html`<li class="item request" data-testid="request">
    <div class="head">
      <strong>Request</strong> ${requestFacts(item)}${item.live && html` · <span class="live">streaming…</span>`}
    </div>
    ${
      item.reasoning.length > 0 &&
      html`<${LongText}
        runId=${runId}
        index=${item.index}
        field="reasoning"
        value=${item.reasoning}
        label="Reasoning"
      />`
    }
    ${
      item.text.length > 0 &&
      html`<${LongText} runId=${runId} index=${item.index} field="text" value=${item.text} label="Text" />`
    }
    ${item.error && html`<div class="error">${item.error}</div>`}
  </li>`;
}

/** Model, start, time to first chunk, duration, tokens and finish reason, as far as they are known. */
function requestFacts(item: RequestItem): string {
  return [
    item.model,
    clock(item.startedAt),
    item.firstChunkMs !== undefined && `first chunk ${ms(item.firstChunkMs)}`,
    item.durationMs !== undefined && `took ${ms(item.durationMs)}`,
    item.inputTokens !== undefined && `tokens ${tokens(item.inputTokens)} / ${tokens(item.outputTokens)}`,
    item.finishReason,
  ]
    .filter(Boolean)
    .join(' · ');
}

function Tool({ runId, item, waiting }: { runId: string; item: ToolItem; waiting: boolean }) {
  return html`<li
    class=${`item tool outcome-${item.outcome ?? 'unknown'}`}
    data-testid="tool-call"
    data-call-id=${item.callId}
  >
    <div class="head">
      <strong>Tool</strong> <code>${item.name}</code> · ${clock(item.startedAt)} ·${' '}
      ${
        waiting
          ? html`<span class="waiting" data-testid="waiting">waiting for approval</span>`
          : item.response === undefined
            ? html`<span class="live">running…</span>`
            : `took ${ms(item.durationMs)}`
      }
      ${item.outcome && html` · <span class="outcome" data-testid="outcome">${item.outcome}</span>`}
    </div>
    <${LongText} runId=${runId} index=${item.index} field="arguments" value=${item.arguments} label="Arguments" />
    ${
      item.response &&
      html`<${LongText}
        runId=${runId}
        index=${item.index}
        field="response"
        value=${item.response}
        label=${item.modelResponse ? 'Response (before compression)' : 'Response (as the model read it)'}
      />`
    }
    ${
      item.modelResponse &&
      html`<${LongText}
        runId=${runId}
        index=${item.index}
        field="modelResponse"
        value=${item.modelResponse}
        label="Response as the model read it (after compression)"
      />`
    }
  </li>`;
}

function Status({ item }: { item: StatusItem }) {
  return html`<li class="item status-change" data-testid="status-change">
    ${clock(item.at)} · <span class=${`status status-${item.status}`}>${item.status}</span>
    ${item.stopReason ? ` · ${item.stopReason}` : ''}${item.attempt ? ` · attempt ${item.attempt}` : ''}
  </li>`;
}
