import { useEffect, useState } from 'preact/hooks';
import type { RequestExchange } from '../types';
import { fetchExchange } from './client';
import { html } from './html';
import { JsonTree } from './json-tree';

/**
 * One request as sent and its response, loaded when opened: the system message, the tool schemas, the whole body
 * and the response, each a collapsible tree. A body carries the whole history, so it is read only when asked for.
 */
export function ExchangeView({ runId, index }: { runId: string; index: number }) {
  const [exchange, setExchange] = useState<RequestExchange | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    fetchExchange(runId, index).then(
      (value) => live && setExchange(value),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [runId, index]);
  if (error) return html`<div class="error">${error}</div>`;
  if (!exchange) return html`<p>Loading…</p>`;
  return html`<div class="exchange" data-testid="exchange">
    <${Section} id="system" label=${`System message (${exchange.system.length})`} value=${exchange.system} open=${3} />
    <${Section} id="tools" label=${`Tool schemas sent (${exchange.tools.length})`} value=${exchange.tools} open=${2} />
    <${Section} id="body" label="Request body, as sent" value=${exchange.body} open=${1} />
    <${Section} id="response" label="Response, as assembled from the stream" value=${exchange.response} open=${2} />
  </div>`;
}

function Section(props: { id: string; label: string; value: unknown; open: number }) {
  return html`<div class="exchange-part" data-testid=${`exchange-${props.id}`}>
    <div class="label">${props.label}</div>
    <${JsonTree} value=${props.value} open=${props.open} />
  </div>`;
}
