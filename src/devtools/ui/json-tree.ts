import { html } from './html';

/**
 * A JSON value as a tree of `<details>`: each array and object opens and closes on a click, the first `open` levels
 * open. Keys and strings are text nodes (what a model wrote never becomes markup); the server has cut long strings.
 */
export function JsonTree(props: { value: unknown; open?: number; label?: string }) {
  return html`<div class="json-tree" data-testid="json-tree">
    <${Node} value=${props.value} depth=${0} open=${props.open ?? 1} name=${props.label} />
  </div>`;
}

function Node({ value, depth, open, name }: { value: unknown; depth: number; open: number; name?: string }) {
  const key = name !== undefined && html`<span class="json-key">${name}</span>: `;
  if (value === null || typeof value !== 'object')
    return html`<div class="json-leaf">${key}<span class=${`json-${leafType(value)}`}>${leafText(value)}</span></div>`;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value as Record<string, unknown>);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (!entries.length) return html`<div class="json-leaf">${key}${brackets[0]}${brackets[1]}</div>`;
  return html`<details class="json-node" open=${depth < open} data-testid="json-node">
    <summary>
      ${key}${brackets[0]}
      <span class="json-count">${countText(entries.length, Array.isArray(value))}</span> ${brackets[1]}
    </summary>
    <div class="json-children">
      ${entries.map(([k, v]) => html`<${Node} key=${k} value=${v} depth=${depth + 1} open=${open} name=${k} />`)}
    </div>
  </details>`;
}

function leafType(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/** A string as JSON writes it (quoted, escapes shown), other leaves as they are. */
function leafText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function countText(n: number, isArray: boolean): string {
  return isArray ? `${n} ${n === 1 ? 'item' : 'items'}` : `${n} ${n === 1 ? 'key' : 'keys'}`;
}
