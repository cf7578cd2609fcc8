import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { DevtoolsRunStatus, RequestItem, StatusItem, TimelineItem, ToolItem } from '../types';
import { agentTree, callKey, type AgentTree } from './agent-tree';
import { waitsUnder } from './waterfall-bars';
import { ExchangeView } from './exchange-view';
import { clock, ms, tokens } from './format';
import { html } from './html';
import { LongText } from './long-text';
import { toolState } from './tool-state';

/**
 * One run's timeline entries: requests, tool calls and changes of status, in order. `answerIndex` is the request
 * whose text is the run's answer: shown once, under the timeline, so here it only points there.
 */
export function Timeline(props: {
  runId: string;
  items: TimelineItem[];
  waiting: string[];
  status: DevtoolsRunStatus;
  answerIndex?: number | undefined;
}) {
  const tree = agentTree(props.items);
  return html`<ol class="timeline" data-testid="timeline">
    <${Entries} ...${props} tree=${tree} items=${tree.top} />
  </ol>`;
}

type EntriesProps = {
  runId: string;
  items: TimelineItem[];
  tree: AgentTree;
  waiting: string[];
  status: DevtoolsRunStatus;
  answerIndex?: number | undefined;
};

/** Entries of one run of the tree, each agent call with its agent's run under it. */
function Entries(props: EntriesProps) {
  const { runId, items, waiting, tree } = props;
  return html`${items.map((item) =>
    item.kind === 'request'
      ? html`<${Request} key=${item.index} runId=${runId} item=${item} isAnswer=${item.index === props.answerIndex} />`
      : item.kind === 'tool'
        ? html`<${Tool}
            key=${item.index}
            runId=${runId}
            item=${item}
            waiting=${waiting.includes(callKey(item.agentPath, item.callId))}
            agentWaits=${waitsUnder(waiting, callKey(item.agentPath, item.callId))}
            status=${props.status}
          >
            ${
              tree.under.has(callKey(item.agentPath, item.callId)) &&
              html`<ol
                class="timeline agent-run"
                data-testid="agent-run"
                data-agent-path=${callKey(item.agentPath, item.callId)}
              >
                <div class="agent-label">agent <code>${item.name}</code></div>
                <${Entries} ...${props} items=${tree.under.get(callKey(item.agentPath, item.callId))} />
              </ol>`
            }
          <//>`
        : html`<${Status} key=${item.index} item=${item} />`,
  )}`;
}

function Request({ runId, item, isAnswer }: { runId: string; item: RequestItem; isAnswer: boolean }) {
  const [shown, setShown] = useState(false);
  const path = item.agentPath?.length ? item.agentPath.join('/') : undefined;
  return html`<li class="item request" data-testid="request" data-agent-path=${path}>
    <div class="head">
      <strong>Request</strong> ${requestFacts(item)}${item.live && html` · <span class="live">streaming…</span>`}
      ${
        item.hasExchange &&
        html`${' · '}<button class="link" data-testid="show-exchange" onClick=${() => setShown(!shown)}>
            ${shown ? 'Hide request and response' : 'Request and response'}
          </button>`
      }
    </div>
    ${shown && html`<${ExchangeView} runId=${runId} index=${item.index} />`}
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
      (isAnswer
        ? html`<div class="label" data-testid="answer-below">Text: the answer, below</div>`
        : html`<${LongText} runId=${runId} index=${item.index} field="text" value=${item.text} label="Text" />`)
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

function Tool(props: {
  runId: string;
  item: ToolItem;
  waiting: boolean;
  status: DevtoolsRunStatus;
  /** A call of the agent this call started waits for a person: the call's answer so far is a placeholder. */
  agentWaits: boolean;
  children?: ComponentChildren;
}) {
  const { runId, item } = props;
  const state = toolState(item, props.waiting, props.status);
  const agentWaits = props.agentWaits && props.status === 'waiting';
  const look = state.kind === 'done' ? `outcome-${item.outcome ?? 'unknown'}` : `state-${state.kind}`;
  const path = item.agentPath?.length ? item.agentPath.join('/') : undefined;
  return html`<li
    class=${`item tool ${look}`}
    data-testid="tool-call"
    data-call-id=${item.callId}
    data-key=${callKey(item.agentPath, item.callId)}
    data-agent-path=${path}
  >
    <div class="head">
      <strong>Tool</strong> <code>${item.name}</code> · ${clock(item.startedAt)}
      ${
        state.kind === 'waiting'
          ? html` · <span class="waiting" data-testid="waiting">waiting for approval</span>`
          : state.kind === 'running'
            ? html` · <span class="live">running…</span>`
            : state.kind === 'not-run'
              ? html` · <span class="waiting" data-testid="not-run">${state.why}</span>`
              : state.durationMs !== undefined &&
                !agentWaits &&
                html` · <span data-testid="duration">took ${ms(state.durationMs)}</span>`
      }
      ${
        agentWaits
          ? html` · <span class="waiting" data-testid="agent-waiting">its agent waits for approval</span>`
          : item.outcome && html` · <span class="outcome" data-testid="outcome">${item.outcome}</span>`
      }
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
    ${props.children}
  </li>`;
}

function Status({ item }: { item: StatusItem }) {
  return html`<li class="item status-change" data-testid="status-change">
    ${clock(item.at)} · <span class=${`status status-${item.status}`}>${item.status}</span>
    ${item.stopReason ? ` · ${item.stopReason}` : ''}${item.attempt ? ` · attempt ${item.attempt}` : ''}
  </li>`;
}
