import type { Browser, Page } from 'playwright-core';
import { runAgentLoop } from '../../src';
import type { RunAgentCallProps } from '../../src';
import { AgentRuns } from '../../src/bullmq';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import type { Devtools } from '../../src/devtools';
import { bullmqRunSource } from '../../src/devtools/queue';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';

const PREAMBLE = 'I will refund the order and close the subscription once you agree.';
const ANSWER = 'Refunded order 1234; the subscription stays open.';

/** A turn that calls two tools needing approval, after a preamble, then the answer. */
const twoGatedCalls = () => [
  {
    text: PREAMBLE,
    toolCalls: [
      { id: 'call_refund', name: 'refund', arguments: { order: 1234, amount: 42 } },
      { id: 'call_close', name: 'close_subscription', arguments: { plan: 'pro' } },
    ],
    usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000 },
  },
  { text: ANSWER, usage: { prompt_tokens: 1_000_000, completion_tokens: 100_000 } },
];

const gatedTools = () => ({
  refund: fakeTool('refund', () => ({ response: 'refunded 42 EUR' }), { needsApproval: true }),
  close: fakeTool('close_subscription', () => ({ response: 'closed' }), { needsApproval: true }),
});

const statusIs = (page: Page, status: string) =>
  page.waitForFunction((want) => document.querySelector('[data-testid="run-status"]')?.textContent === want, status, {
    timeout: 30_000,
  });
const toolCall = (page: Page, callId: string) => page.locator(`[data-testid="tool-call"][data-call-id="${callId}"]`);
const pendingCall = (page: Page, callId: string) =>
  page.locator(`[data-testid="pending-call"][data-call-id="${callId}"]`);

/**
 * The two-call approval as a person makes it: both calls read "waiting for approval" with their arguments, there is
 * no answer yet (the preamble is not one), one approval leaves the run waiting, the rejection (with a reason) sends it
 * on; then the approved call ran, the rejected one reads rejected with no duration, and the answer is shown once.
 */
async function approveOneRejectOther(page: Page, isWaiting: () => Promise<boolean>): Promise<void> {
  await pendingCall(page, 'call_close').waitFor({ timeout: 30_000 });
  await statusIs(page, 'waiting');
  await page.getByTestId('approve-all').waitFor();
  await page.getByTestId('reject-all').waitFor();
  for (const id of ['call_refund', 'call_close']) {
    const entry = toolCall(page, id);
    await entry.getByTestId('waiting').waitFor();
    expect(await entry.getByTestId('waiting').textContent()).toBe('waiting for approval');
  }
  expect(await page.locator('#app').textContent()).not.toContain('running…');
  expect(await toolCall(page, 'call_refund').getByTestId('text-arguments').textContent()).toContain('"amount":42');
  expect(await toolCall(page, 'call_close').getByTestId('text-arguments').textContent()).toContain('"plan":"pro"');
  expect(await page.getByTestId('answer').count()).toBe(0);
  expect(await page.getByTestId('text-text').first().textContent()).toBe(PREAMBLE);

  await pendingCall(page, 'call_refund').getByTestId('approve').click();
  await pendingCall(page, 'call_refund').getByTestId('decided').waitFor({ timeout: 30_000 });
  expect(await pendingCall(page, 'call_refund').getByTestId('decided').textContent()).toContain('approved');
  // One of two decided: the run still waits, and the other call can still be decided.
  expect(await isWaiting()).toBe(true);
  expect(await page.getByTestId('run-status').textContent()).toBe('waiting');
  await pendingCall(page, 'call_close').getByTestId('reject-reason').fill('not today');
  await pendingCall(page, 'call_close').getByTestId('reject').click();
  await statusIs(page, 'completed');

  await page.getByTestId('answer').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('answer').textContent()).toBe(ANSWER);
  const shown = (await page.locator('#app').textContent()) ?? '';
  expect(shown.split(ANSWER).length - 1).toBe(1);
  const refunded = toolCall(page, 'call_refund');
  await refunded.getByTestId('outcome').waitFor();
  expect(await refunded.getAttribute('class')).toContain('outcome-ok');
  const rejected = toolCall(page, 'call_close');
  await rejected.getByTestId('outcome').waitFor();
  expect(await rejected.getByTestId('outcome').textContent()).toBe('rejected');
  expect(await rejected.getAttribute('class')).toContain('outcome-rejected');
  expect(await rejected.getAttribute('class')).not.toContain('outcome-ok');
  expect(await rejected.getByTestId('duration').count()).toBe(0);
  expect(await rejected.getByTestId('text-response').textContent()).toBe('Tool call rejected by the user: not today');
}

describe('a run waiting on two calls, decided from the page in a real Chromium', () => {
  let browser: Browser;
  let server: ScriptedServer;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server?.close());
  afterAll(() => browser?.close());

  it('over a queue on a real Redis: gathers the decisions in the runs, then the run goes on to its answer', async () => {
    const redis: TestRedis = await startRedis();
    const runs = new AgentRuns({
      connection: { host: redis.host, port: redis.port },
      queueName: `${redis.namespace}-approvals`,
      prefix: `${redis.namespace}:approvals`,
      secret: 'page secret',
    });
    let devtools: Devtools | undefined;
    try {
      const { refund, close } = gatedTools();
      await runs.worker({ setup: async () => ({ client: server.client(), tools: [refund, close] }) }).waitUntilReady();
      devtools = await startDevtools({ source: bullmqRunSource({ runs, pollMs: 200 }) });
      server.enqueue(...twoGatedCalls());
      const { runId } = await runs.start({
        runId: 'two-calls-queue',
        body: { model: 'gpt-test', messages: [user('Refund order 1234 and close my subscription.')] },
      });
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${devtools.url}#/run/${runId}`);
      await approveOneRejectOther(page, async () => {
        const record = await runs.get(runId);
        return record.status === 'waiting' && record.decisions?.call_refund !== undefined;
      });
      expect((await runs.get(runId)).text).toBe(ANSWER);
      expect([refund.calls.length, close.calls.length]).toEqual([1, 0]);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await devtools?.close();
      await runs.close();
      await redis.stop();
    }
  }, 120_000);

  it('in process: the recorder resumes the run once, with both decisions; cost comes from the run’s prices', async () => {
    const { refund, close } = gatedTools();
    const resumes: unknown[] = [];
    const base = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('Refund order 1234 and close my subscription.')] },
      tools: [refund, close],
      prices: { 'gpt-test': { input: 1, output: 2 } },
    } satisfies Partial<RunAgentCallProps>;
    const recorder = createRunRecorder({
      resume: async ({ state, decisions }) => {
        resumes.push(decisions);
        const props = { ...base, resumeFrom: state, decisions };
        recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
      },
    });
    const devtools = await startDevtools({ source: recorder.source });
    try {
      server.enqueue(...twoGatedCalls());
      const props = { ...base, runId: 'two-calls-here' };
      recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.goto(devtools.url);
      // 1M tokens in at $1 and 0.5M out at $2 per million: $2, with no `pricing` given to the page.
      const row = page.locator('[data-testid="run-row"][data-run-id="two-calls-here"]');
      await row.waitFor();
      expect(await row.textContent()).toContain('$2.000');
      // The list carries the day each run started, and narrows by words and status.
      const today = await page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      expect(await row.textContent()).toContain(today);
      await page.getByTestId('filter-text').fill('no such run');
      await row.waitFor({ state: 'detached' });
      await page.getByTestId('filter-text').fill('two-calls');
      await page.getByTestId('filter-status').selectOption('waiting');
      await row.waitFor();
      await page.getByTestId('filter-status').selectOption('completed');
      await row.waitFor({ state: 'detached' });
      await page.goto(`${devtools.url}#/run/two-calls-here`);
      await approveOneRejectOther(page, async () => resumes.length === 0);
      expect(resumes).toEqual([
        { call_refund: { approve: true }, call_close: { approve: false, reason: 'not today' } },
      ]);
      expect([refund.calls.length, close.calls.length]).toEqual([1, 0]);
      await page.close();
    } finally {
      await devtools.close();
    }
  }, 120_000);

  it('asks before cancelling, and the calls a cancelled run waited on never read "running"', async () => {
    const { refund, close } = gatedTools();
    const recorder = createRunRecorder({ resume: () => undefined });
    const devtools = await startDevtools({ source: recorder.source });
    try {
      server.enqueue(...twoGatedCalls());
      const props = {
        client: server.client(),
        body: { model: 'gpt-test', messages: [user('go')] },
        tools: [refund, close],
        runId: 'to-cancel',
      };
      recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
      const page = await browser.newPage();
      await page.goto(`${devtools.url}#/run/to-cancel`);
      await pendingCall(page, 'call_close').waitFor();
      await page.getByTestId('cancel').click();
      await page.getByTestId('cancel-confirm').waitFor();
      await page.getByTestId('keep-running').click();
      await page.getByTestId('cancel').waitFor();
      expect(await page.getByTestId('run-status').textContent()).toBe('waiting');
      await page.getByTestId('cancel').click();
      await page.getByTestId('confirm-cancel').click();
      await statusIs(page, 'cancelled');
      for (const id of ['call_refund', 'call_close']) {
        const entry = toolCall(page, id);
        await entry.getByTestId('not-run').waitFor();
        expect(await entry.getByTestId('not-run').textContent()).toBe('was waiting for approval; run cancelled');
      }
      expect(await page.locator('#app').textContent()).not.toContain('running…');
      expect(await page.getByTestId('pending').count()).toBe(0);
      await page.close();
    } finally {
      await devtools.close();
    }
  }, 60_000);
});
