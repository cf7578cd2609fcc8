import { useState } from 'preact/hooks';
import type { ShownText } from '../types';
import { fetchText } from './client';
import { html } from './html';

/**
 * A text the server may have cut: shown as text in a `<pre>`, with a button that loads the whole of it. A text
 * of megabytes is read only when asked for.
 */
export function LongText(props: { runId: string; index: number; field: string; value: ShownText; label: string }) {
  const [whole, setWhole] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const { value } = props;
  const text = whole ?? value.text;
  const cut = whole === undefined && value.length > value.text.length;
  const showAll = () =>
    fetchText(props.runId, props.index, props.field).then(setWhole, (e: Error) => setFailed(e.message));
  return html`<div class="long-text">
    <div class="label">${props.label}</div>
    <pre data-testid=${`text-${props.field}`}>${text}</pre>
    ${
      cut &&
      html`<button class="link" data-testid="show-all" onClick=${showAll}>
        Show all (${value.length.toLocaleString('en-US')} characters,
        ${(value.length - value.text.length).toLocaleString('en-US')} more)
      </button>`
    }
    ${failed && html`<div class="error">${failed}</div>`}
  </div>`;
}
