import type { TimelineItem } from '../types';
import { ms } from './format';
import { html } from './html';
import { waterfallBars } from './waterfall-bars';

/**
 * The page's requests and calls as bars on one time axis, one row each: what ran together overlaps, a call that
 * waits or runs is an open bar to the run's last moment. Positions are set through the style object (the CSP allows
 * no inline style markup).
 */
export function Waterfall(props: { items: TimelineItem[]; until: number; waiting: string[] }) {
  const { bars, spanMs } = waterfallBars(props.items, props.until, props.waiting);
  if (!bars.length) return null;
  const pct = (value: number) => `${((value / spanMs) * 100).toFixed(3)}%`;
  return html`<details class="waterfall" open data-testid="waterfall">
    <summary>Timing (${ms(spanMs)})</summary>
    ${bars.map(
      (bar) =>
        html`<div class="bar-row" key=${bar.key}>
          <span class="bar-label" style=${{ paddingLeft: `${bar.depth * 12}px` }}>${bar.label}</span>
          <span class="bar-track">
            <span
              class=${`bar bar-${bar.kind}${bar.end === undefined ? ' bar-open' : ''}`}
              data-testid="bar"
              data-kind=${bar.kind}
              data-key=${bar.key}
              data-depth=${bar.depth}
              data-start=${bar.start}
              data-end=${bar.end}
              data-open=${bar.end === undefined ? 'true' : undefined}
              title=${`${bar.label}: ${bar.end === undefined ? 'not ended' : ms(bar.end - bar.start)}`}
              style=${{ left: pct(bar.start), width: pct(Math.max((bar.end ?? spanMs) - bar.start, spanMs / 500)) }}
            ></span>
          </span>
        </div>`,
    )}
  </details>`;
}
