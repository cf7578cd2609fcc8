import type { RequestItem, TimelineItem, ToolItem } from '../types';
import { callKey } from './agent-tree';

/** One bar of the waterfall, in milliseconds from the axis' start. */
export type Bar = {
  kind: 'request' | 'tool';
  /** The call's decision key, or `request-<index>`. */
  key: string;
  label: string;
  /** How deep in the agent tree (0: the run's own). */
  depth: number;
  start: number;
  /** Absent for an open bar: a request still streaming, a call running or waiting for a person. */
  end?: number;
};

type Timed = { item: RequestItem | ToolItem; from: number; to?: number };

/** When a request or a call started and ended, as far as the page knows (`to` absent while it goes on). */
function timed(item: RequestItem | ToolItem): Timed {
  if (item.kind === 'request') {
    if (item.live) return { item, from: item.startedAt };
    return { item, from: item.startedAt, to: item.endedAt ?? item.startedAt + (item.durationMs ?? 0) };
  }
  // A call's bar starts when its work did (after a wait for a person, at the resume), else when the model made it.
  const from = item.ranAt ?? item.startedAt;
  if (item.response === undefined) return { item, from };
  return { item, from, to: Math.max(from, item.endedAt ?? from + (item.durationMs ?? 0)) };
}

/** Whether a call of the agent started by the call `key` waits for a person. */
export function waitsUnder(waiting: readonly string[], key: string): boolean {
  return waiting.some((pending) => pending.startsWith(`${key}/`));
}

/**
 * The bars of a page's requests and calls on one time axis: a request from its start to its end (or the last thing
 * seen of it), a call from when its work started to its result. Calls that ran together overlap on the axis.
 * `until` (epoch milliseconds) is where open bars run to; `waiting` the keys of the calls waiting for a person.
 */
export function waterfallBars(
  items: readonly TimelineItem[],
  until: number,
  waiting: readonly string[] = [],
): { bars: Bar[]; spanMs: number } {
  const spans = items.flatMap((item) => {
    if (item.kind === 'status') return [];
    const span = timed(item);
    // An agent call whose agent waits for a person has an answer for now, not its end.
    if (item.kind === 'tool' && waitsUnder(waiting, callKey(item.agentPath, item.callId))) delete span.to;
    return [span];
  });
  if (!spans.length) return { bars: [], spanMs: 0 };
  const t0 = Math.min(...spans.map((span) => span.from));
  const t1 = Math.max(until, ...spans.map((span) => span.to ?? span.from));
  const bars = spans.map(({ item, from, to }): Bar => {
    const base = {
      depth: item.agentPath?.length ?? 0,
      start: from - t0,
      ...(to !== undefined ? { end: to - t0 } : {}),
    };
    return item.kind === 'tool'
      ? { kind: 'tool', key: callKey(item.agentPath, item.callId), label: item.name, ...base }
      : { kind: 'request', key: `request-${item.index}`, label: `request ${item.model ?? ''}`.trim(), ...base };
  });
  // Room past the run's last moment, so that an open bar reads as running on rather than as a sliver.
  const room = bars.some((bar) => bar.end === undefined) ? 1.1 : 1;
  return { bars, spanMs: Math.max(1, (t1 - t0) * room) };
}
