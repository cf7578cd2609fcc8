import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Browser } from 'playwright-core';
import { AgentRuns } from '../../src/bullmq';
import { runAgentLoop } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import { bullmqRunSource } from '../../src/devtools/queue';
import type { Devtools } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fakeTool, user } from '../helpers/tools';
import { runJestFile } from './helpers';

const SCREENSHOT = join(__dirname, '../../docs/devtools-run.png');
/** `AGENTCALL_WRITE_SCREENSHOTS=1` writes the docs' screenshots; otherwise they are taken and checked only. */
const WRITE_SCREENSHOTS = process.env.AGENTCALL_WRITE_SCREENSHOTS === '1';
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

describe('the devtools page in a real Chromium, over a queue on a real Redis', () => {
  let redis: TestRedis;
  let server: ScriptedServer;
  let browser: Browser;
  let runs: AgentRuns;
  let connection: Redis;
  let devtools: Devtools;

  beforeAll(async () => {
    browser = await launchChromium();
    redis = await startRedis();
    server = await startScriptedServer();
    const connectionOptions = { host: redis.host, port: redis.port };
    const prefix = `${redis.namespace}:devtools`;
    runs = new AgentRuns({
      connection: connectionOptions,
      queueName: `${redis.namespace}-devtools`,
      prefix,
      secret: 's3cret',
    });
    const lookup = fakeTool('lookup_order', ({ call }) => ({
      response: `order ${call.function.arguments}: shipped ${HOSTILE}`,
    }));
    const refund = fakeTool('refund', () => ({ response: 'refunded 42 EUR' }), { needsApproval: true });
    runs.worker({ setup: async () => ({ client: server.client(), tools: [lookup, refund] }) });
    connection = new Redis({ ...connectionOptions, maxRetriesPerRequest: 1 });
    devtools = await startDevtools({
      source: bullmqRunSource({ runs, connection, prefix, pollMs: 250 }),
      pricing: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } },
    });
  }, 60_000);
  afterAll(async () => {
    await devtools?.close();
    await runs?.close();
    connection?.disconnect();
    await server?.close();
    await browser?.close();
    await redis?.stop();
  });

  it('shows a run as it streams, approves its pending call, and exports a test that passes', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(devtools.url);
    await page.getByTestId('no-runs').waitFor();
    // The link opened the page; the token left the address bar (a cookie of the page carries it now).
    expect(page.url()).toBe(`${new URL(devtools.url).origin}/`);

    server.enqueue(
      {
        reasoning: 'The user wants a refund; look the order up first.',
        text: `Looking up order 1234 ${HOSTILE} for you now, one moment please.`,
        chunkSize: 3,
        chunkDelayMs: 60,
        toolCalls: [{ id: 'call_lookup', name: 'lookup_order', arguments: { order: 1234 } }],
        usage: { prompt_tokens: 420, completion_tokens: 64 },
      },
      {
        toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { order: 1234, amount: 42 } }],
        usage: { prompt_tokens: 510, completion_tokens: 22 },
      },
      { text: 'Refunded 42 EUR for order 1234.', usage: { prompt_tokens: 560, completion_tokens: 12 } },
    );
    const { runId } = await runs.start({
      runId: 'refund-order-1234',
      body: { model: 'gpt-4o-mini', messages: [user('Please refund order 1234.')] },
    });

    // The run appears in the live list without a reload, and opens.
    const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
    await row.waitFor();
    await row.getByRole('link').click();
    await page.getByTestId('run-view').waitFor();

    // The timeline fills while the model streams: part of the text is there before the whole of it.
    const text = page.getByTestId('text-text').first();
    await text.waitFor();
    const partial = await text.textContent();
    expect(partial!.length).toBeGreaterThan(0);
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid="text-text"]')?.textContent ?? '').includes('one moment please.'),
    );
    const streamed = await text.textContent();
    expect(streamed!.length).toBeGreaterThan(partial!.length);

    // Waits for a person: approve the refund from the page.
    const pending = page.getByTestId('pending-call');
    await pending.waitFor({ timeout: 20_000 });
    expect(await pending.textContent()).toContain('refund');
    expect(await page.getByTestId('run-status').textContent()).toBe('waiting');
    await pending.getByTestId('approve').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-status"]')?.textContent === 'completed',
      undefined,
      {
        timeout: 20_000,
      },
    );
    expect((await runs.get(runId)).text).toBe('Refunded 42 EUR for order 1234.');
    await page.getByTestId('answer').waitFor();
    expect(await page.getByTestId('answer').textContent()).toBe('Refunded 42 EUR for order 1234.');

    // What the model and the tools wrote is shown as text: nothing of it became an element or ran.
    expect(await page.getByTestId('text-text').first().textContent()).toContain(HOSTILE);
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const tools = page.getByTestId('tool-call');
    expect(await tools.count()).toBe(2);
    expect(await tools.first().textContent()).toContain('order {"order":1234}: shipped');

    // The docs' screenshot is written only when asked for, so that a test run leaves the tracked PNG as it is.
    const shot = await page.screenshot({ fullPage: true, ...(WRITE_SCREENSHOTS ? { path: SCREENSHOT } : {}) });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');

    // One click downloads a Jest test that replays the run; it passes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    expect(download.suggestedFilename()).toBe(`run-${runId}.test.ts`);
    const file = readFileSync(await download.path(), 'utf8');
    expect(file).toContain('"lookup_order"');
    const replay = await runJestFile(file, 'replay.test.ts');
    expect({ code: replay.code, output: replay.code ? replay.output : '' }).toEqual({ code: 0, output: '' });
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows nothing without the token', async () => {
    const page = await browser.newPage();
    const url = new URL(devtools.url);
    const res = await page.goto(`${url.origin}/`);
    expect(res!.status()).toBe(401);
    expect(await page.locator('body').textContent()).toBe('Unauthorized');
    await page.close();
  });

  it('cancels a running run from the page', async () => {
    server.enqueue({ text: 'a long answer '.repeat(200), chunkSize: 2, chunkDelayMs: 50 });
    const { runId } = await runs.start({
      runId: 'to-cancel',
      body: { model: 'gpt-4o-mini', messages: [user('talk')] },
    });
    const page = await browser.newPage();
    await page.goto(`${devtools.url}#/run/${runId}`);
    await page.getByTestId('text-text').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('cancel').click();
    await page.getByTestId('confirm-cancel').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="run-status"]')?.textContent === 'cancelled',
      undefined,
      {
        timeout: 20_000,
      },
    );
    expect((await runs.get(runId)).status).toBe('cancelled');
    await page.close();
  }, 60_000);
});

describe('the devtools page in a real Chromium, over an in-process recorder', () => {
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

  it('cuts a huge text with a way to see the whole, and pages 1,000 tool calls', async () => {
    const recorder = createRunRecorder();
    const devtools = await startDevtools({ source: recorder.source });
    try {
      const lookup = fakeTool('lookup', ({ call }) => ({ response: `result ${call.function.arguments}` }));
      const calls = Array.from({ length: 50 }, (_, i) => ({ name: 'lookup', arguments: { i } }));
      const huge = `${HOSTILE}${'w'.repeat(2 * 1024 * 1024)}THE END`;
      server.enqueue({ text: huge, chunkSize: 64 * 1024, toolCalls: calls });
      server.enqueue(...Array.from({ length: 19 }, () => ({ toolCalls: calls })), { text: 'done' });
      const props = {
        client: server.client(),
        body: { model: 'gpt-test', messages: [user('go')] },
        tools: [lookup],
        runId: 'huge',
        maxRunAgentTimes: 30,
        maxConsecutiveToolTurns: 0,
      };
      recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));

      const page = await browser.newPage();
      await page.goto(`${devtools.url}#/run/huge`);
      await page.getByTestId('answer').waitFor();
      // The newest page: at most 100 entries of the 1,022 on screen.
      expect(await page.getByTestId('pager').textContent()).toContain('of 1022');
      expect(await page.locator('[data-testid="timeline"] > li').count()).toBe(100);
      // Back to the first page, where the huge text is: cut, with a button for the whole of it.
      const older = page.getByRole('button', { name: 'Older' });
      for (let i = 0; i < 12 && !(await older.isDisabled()); i++) {
        const before = await page.getByTestId('pager').textContent();
        await older.click();
        await page.waitForFunction(
          (shown) => document.querySelector('[data-testid="pager"]')?.textContent !== shown,
          before,
        );
      }
      expect(await page.getByTestId('pager').textContent()).toContain('entries 1–100 of 1022');
      const text = page.getByTestId('text-text').first();
      expect((await text.textContent())!.length).toBe(4000);
      await page.getByTestId('show-all').first().click();
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="text-text"]')?.textContent?.endsWith('THE END'),
      );
      expect((await text.textContent())!.length).toBe(huge.length);
      expect(await page.locator('#app img, #app script').count()).toBe(0);
      await page.close();
    } finally {
      await devtools.close();
    }
  }, 120_000);
});
