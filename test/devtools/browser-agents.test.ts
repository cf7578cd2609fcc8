import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { defineAgent, runAgentLoop } from '../../src';
import type { RunAgentCallProps } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { fakeTool, user } from '../helpers/tools';

const SCREENSHOT = join(__dirname, '../../docs/devtools-agents.png');
/** `AGENTCALL_WRITE_SCREENSHOTS=1` writes the docs' screenshots; otherwise they are taken and checked only. */
const WRITE_SCREENSHOTS = process.env.AGENTCALL_WRITE_SCREENSHOTS === '1';

const ANSWER = 'Found 3 offers and refunded order 7.';

describe('a run with agents as tools, in a real Chromium', () => {
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

  it('shows each agent’s run under the call that started it, and approves its call from the page', async () => {
    const search = fakeTool('search', () => ({ response: '3 offers' }));
    const refund = fakeTool('refund', () => ({ response: 'refunded order 7' }), { needsApproval: true });
    const research = defineAgent({
      name: 'research',
      description: 'Finds offers',
      instructions: 'Search the catalogue.',
      tools: [search],
    });
    const cashier = defineAgent({
      name: 'cashier',
      description: 'Refunds orders',
      instructions: 'Refund what you are asked to.',
      tools: [refund],
    });
    const base = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('Find offers, then refund order 7.')] },
      tools: [research, cashier],
      runId: 'agents-1',
    } satisfies Partial<RunAgentCallProps>;
    const resumes: unknown[] = [];
    const recorder = createRunRecorder({
      resume: async ({ state, decisions }) => {
        resumes.push(decisions);
        const props = { ...base, resumeFrom: state, decisions };
        recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
      },
    });
    const devtools = await startDevtools({ source: recorder.source });
    try {
      // The root calls `research`, whose run searches and answers; then `cashier`, whose refund waits for a person.
      // The child's call ids repeat the root's on purpose: the page tells them apart by their path.
      server.enqueue(
        { toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 'offers for shoes' } }] },
        { toolCalls: [{ id: 'call_1', name: 'search', arguments: { query: 'shoes' } }] },
        { text: 'There are 3 offers.' },
        { toolCalls: [{ id: 'call_2', name: 'cashier', arguments: { task: 'refund order 7' } }] },
        { text: 'Refunding now.', toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 7 } }] },
        { text: 'Refunded order 7.' },
        { text: ANSWER },
      );
      const first = await runAgentLoop({ ...base, ...recorder.hooks(base) });
      recorder.finish(first);
      expect(first.stopReason).toBe('interactive');
      expect(first.state.pending.map((p) => [...(p.agentPath ?? []), p.call.id].join('/'))).toEqual(['call_2/r1']);

      const page = await browser.newPage({ viewport: { width: 1100, height: 1200 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${devtools.url}#/run/agents-1`);
      const researchRun = page.locator('[data-testid="agent-run"][data-agent-path="call_1"]');
      await researchRun.waitFor();
      // The research agent's request, its search and its text sit under the root's `research` call.
      const researchCall = page.locator('[data-testid="tool-call"][data-key="call_1"]');
      expect(await researchCall.locator(':scope > .head code').textContent()).toBe('research');
      const search1 = researchRun.locator('[data-testid="tool-call"][data-key="call_1/call_1"]');
      expect(await search1.locator(':scope > .head code').textContent()).toBe('search');
      expect(await search1.getByTestId('outcome').textContent()).toBe('ok');
      expect(await researchRun.getByTestId('request').count()).toBe(2);
      expect(await researchRun.getByTestId('text-text').last().textContent()).toBe('There are 3 offers.');
      // The root's own timeline holds none of the agents' entries at its top level.
      expect(await page.locator('[data-testid="timeline"] > [data-testid="request"]').count()).toBe(2);

      // The refund waits under the cashier agent, in the timeline and in the pending list.
      const cashierRun = page.locator('[data-testid="agent-run"][data-agent-path="call_2"]');
      const gated = cashierRun.locator('[data-testid="tool-call"][data-key="call_2/r1"]');
      expect(await gated.getByTestId('waiting').textContent()).toBe('waiting for approval');
      const pending = page.locator('[data-testid="pending-call"][data-key="call_2/r1"]');
      expect(await pending.getByTestId('pending-agent').textContent()).toContain('cashier');
      // The call that started the agent waits with it: its placeholder answer is no outcome, and its bar is open.
      const cashierCall = page.locator('[data-testid="tool-call"][data-key="call_2"]');
      expect(await cashierCall.locator(':scope > .head [data-testid="agent-waiting"]').count()).toBe(1);
      expect(await cashierCall.locator(':scope > .head [data-testid="outcome"]').count()).toBe(0);
      const openBars = await page.$$eval('[data-testid="bar"][data-open="true"]', (nodes) =>
        nodes.map((node) => (node as HTMLElement).dataset.key),
      );
      expect(openBars).toEqual(['call_2', 'call_2/r1']);
      expect(await page.locator('#app').textContent()).not.toContain('running…');
      const shot = await page
        .getByTestId('run-view')
        .screenshot({ ...(WRITE_SCREENSHOTS ? { path: SCREENSHOT } : {}) });
      expect(shot.subarray(1, 4).toString()).toBe('PNG');

      await pending.getByTestId('approve').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="run-status"]')?.textContent === 'completed',
      );
      await page.getByTestId('answer').waitFor();
      expect(await page.getByTestId('answer').textContent()).toBe(ANSWER);
      // One resume of the root, with the decision keyed by the call's whole path; the refund ran once.
      expect(resumes).toEqual([{ 'call_2/r1': { approve: true } }]);
      expect(refund.calls).toHaveLength(1);
      await gated.getByTestId('outcome').waitFor();
      expect(await gated.getByTestId('outcome').textContent()).toBe('ok');
      expect(await gated.getByTestId('text-response').textContent()).toBe('refunded order 7');
      expect(await cashierRun.getByTestId('text-text').last().textContent()).toBe('Refunded order 7.');
      expect(await page.getByTestId('pending').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await devtools.close();
    }
  }, 120_000);
});
