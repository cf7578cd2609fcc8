import type { RequestItem, TimelineItem, ToolItem } from '../../src/devtools';
import { waterfallBars } from '../../src/devtools/ui/waterfall-bars';

const request = (index: number, startedAt: number, endedAt: number, extra: Partial<RequestItem> = {}): RequestItem => ({
  kind: 'request',
  index,
  startedAt,
  endedAt,
  live: false,
  text: { text: '', length: 0 },
  reasoning: { text: '', length: 0 },
  hasExchange: false,
  ...extra,
});
const tool = (index: number, callId: string, extra: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  index,
  callId,
  name: callId,
  arguments: { text: '{}', length: 2 },
  startedAt: 0,
  ...extra,
});

describe('the bars of the timing waterfall', () => {
  const items: TimelineItem[] = [
    request(0, 1_000, 1_100),
    // Made while the request streamed, run after it ended: the bar starts when the work did.
    tool(1, 'agent', { startedAt: 1_050, ranAt: 1_100, endedAt: 1_160, response: { text: 'waiting', length: 7 } }),
    request(2, 1_110, 1_140, { agentPath: ['agent'] }),
    tool(3, 'pay', { agentPath: ['agent'], startedAt: 1_130 }),
  ];

  it('starts a call when its work started, and opens the bars of a call waiting and of its agent’s call', () => {
    const { bars, spanMs } = waterfallBars(items, 1_160, ['agent/pay']);
    expect(bars.map(({ key, start, end, depth }) => ({ key, start, end, depth }))).toEqual([
      { key: 'request-0', start: 0, end: 100, depth: 0 },
      { key: 'agent', start: 100, end: undefined, depth: 0 },
      { key: 'request-2', start: 110, end: 140, depth: 1 },
      { key: 'agent/pay', start: 130, end: undefined, depth: 1 },
    ]);
    // Room past the last moment for the open bars.
    expect(spanMs).toBeCloseTo(176);
  });

  it('closes the agent’s call once nothing under it waits', () => {
    const { bars, spanMs } = waterfallBars(items.slice(0, 3), 1_160, []);
    expect(bars.map((bar) => bar.end)).toEqual([100, 160, 140]);
    expect(spanMs).toBe(160);
  });
});
