import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runAgentLoop } from '../../src';
import type { RunAgentCallProps } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { fakeTool, user } from '../helpers/tools';

const SCREENSHOT = join(__dirname, '../../docs/devtools-waterfall.png');
/** `AGENTCALL_WRITE_SCREENSHOTS=1` writes the docs' screenshots; otherwise they are taken and checked only. */
const WRITE_SCREENSHOTS = process.env.AGENTCALL_WRITE_SCREENSHOTS === '1';

/**
 * A request's start is its end less its duration, timed on the monotonic clock: against a call's end, read on the
 * wall clock in whole milliseconds, it can fall up to one millisecond early.
 */
const CLOCK_SLACK = 1;

/** A bar of the waterfall as the page renders it. */
type ShownBar = { kind: string; key: string; start: number; end?: number; open: boolean; left: string };

async function bars(page: Page): Promise<ShownBar[]> {
  return page.$$eval('[data-testid="bar"]', (nodes) =>
    nodes.map((node) => {
      const el = node as HTMLElement;
      return {
        kind: el.dataset.kind ?? '',
        key: el.dataset.key ?? '',
        start: Number(el.dataset.start),
        ...(el.dataset.end !== undefined ? { end: Number(el.dataset.end) } : {}),
        open: el.dataset.open === 'true',
        left: el.style.left,
      };
    }),
  );
}

/**
 * Two calls that cannot end before both have started (each waits for the other, then 30 ms more): they ran at the
 * same time whatever the machine's load, so their bars must overlap.
 */
function parallelPair() {
  let arrived = 0;
  let release!: () => void;
  const both = new Promise<void>((resolve) => (release = resolve));
  const meet = async () => {
    if (++arrived === 2) release();
    await both;
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { response: 'fetched' };
  };
  return [fakeTool('fetch_orders', meet), fakeTool('fetch_invoices', meet)];
}

describe('the timing waterfall of a run, in a real Chromium', () => {
  let browser: Browser;
  let server: ScriptedServer;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startScriptedServer();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it('puts each request and call on one time axis: parallel calls side by side, a waiting call open', async () => {
    const [orders, invoices] = parallelPair();
    const refund = fakeTool('refund', () => ({ response: 'refunded' }), { needsApproval: true });
    const base = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('Refund what was billed twice.')] },
      tools: [orders, invoices, refund],
      toolConcurrency: 2,
      runId: 'waterfall-1',
    } satisfies Partial<RunAgentCallProps>;
    const recorder = createRunRecorder({
      resume: async ({ state, decisions }) => {
        const props = { ...base, resumeFrom: state, decisions };
        recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
      },
    });
    const devtools = await startDevtools({ source: recorder.source });
    try {
      server.enqueue(
        {
          toolCalls: [
            { id: 'c_orders', name: 'fetch_orders', arguments: {} },
            { id: 'c_invoices', name: 'fetch_invoices', arguments: {} },
          ],
        },
        { text: 'Order 7 was billed twice.', toolCalls: [{ id: 'c_refund', name: 'refund', arguments: { order: 7 } }] },
        { text: 'Refunded order 7.' },
      );
      recorder.finish(await runAgentLoop({ ...base, ...recorder.hooks(base) }));
      const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${devtools.url}#/run/waterfall-1`);
      await page.getByTestId('waterfall').waitFor();

      const waiting = await bars(page);
      expect(waiting.map((bar) => bar.key)).toEqual(['request-0', 'c_orders', 'c_invoices', 'request-3', 'c_refund']);
      const [first, a, b, second, gated] = waiting;
      // The calls ran after the request that made them, together, and before the next request.
      expect(first.end).toBeDefined();
      expect(a.start).toBeGreaterThanOrEqual(first.end!);
      expect(b.start).toBeGreaterThanOrEqual(first.end!);
      expect(a.start).toBeLessThan(b.end!);
      expect(b.start).toBeLessThan(a.end!);
      expect(second.start + CLOCK_SLACK).toBeGreaterThanOrEqual(Math.max(a.end!, b.end!));
      // The call waiting for a person is an open bar; the others are closed.
      expect(gated.open).toBe(true);
      expect(gated.end).toBeUndefined();
      expect(waiting.filter((bar) => bar.open)).toHaveLength(1);
      // Placed through the style object (the CSP allows no inline style markup).
      expect(a.left).toMatch(/%$/);

      const shot = await page
        .getByTestId('waterfall')
        .screenshot({ ...(WRITE_SCREENSHOTS ? { path: SCREENSHOT } : {}) });
      expect(shot.subarray(1, 4).toString()).toBe('PNG');

      await page.getByTestId('pending-call').getByTestId('approve').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="run-status"]')?.textContent === 'completed',
      );
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="bar"]').length === 6);
      const done = await bars(page);
      expect(done.filter((bar) => bar.open)).toEqual([]);
      const refunded = done.find((bar) => bar.key === 'c_refund')!;
      const last = done[5];
      expect(last.kind).toBe('request');
      expect(refunded.end).toBeGreaterThanOrEqual(refunded.start);
      expect(last.start + CLOCK_SLACK).toBeGreaterThanOrEqual(refunded.end!);

      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await devtools.close();
    }
  }, 120_000);
});
