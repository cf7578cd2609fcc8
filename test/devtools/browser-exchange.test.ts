import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { runAgentLoop } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import type { Devtools } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { fakeTool, user } from '../helpers/tools';

const SCREENSHOT = join(__dirname, '../../docs/devtools-exchange.png');
/** `AGENTCALL_WRITE_SCREENSHOTS=1` writes the docs' screenshots; otherwise they are taken and checked only. */
const WRITE_SCREENSHOTS = process.env.AGENTCALL_WRITE_SCREENSHOTS === '1';
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const SYSTEM = `You are the order desk of a shop. ${HOSTILE}`;

describe('a request as sent and its response, in a real Chromium', () => {
  let browser: Browser;
  let server: ScriptedServer;
  let devtools: Devtools;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startScriptedServer();
  }, 60_000);
  afterAll(async () => {
    await devtools?.close();
    await server?.close();
    await browser?.close();
  });

  it('shows the system message, the tool schemas, the body and the response as collapsible JSON, as text', async () => {
    const lookup = fakeTool('lookup_order', ({ call }) => ({ response: `order ${call.function.arguments}: shipped` }));
    lookup.schema.function.description = `Look an order up by its number. ${HOSTILE}`;
    const recorder = createRunRecorder();
    devtools = await startDevtools({ source: recorder.source });
    server.enqueue(
      { text: 'Looking it up.', toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { order: 1234 } }] },
      { text: `Order 1234 has shipped. ${HOSTILE}` },
    );
    const props = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [{ role: 'system' as const, content: SYSTEM }, user('Where is 1234?')] },
      tools: [lookup],
      runId: 'exchange-in-chromium',
    };
    recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));

    const page = await browser.newPage({ viewport: { width: 1200, height: 1100 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${devtools.url}#/run/exchange-in-chromium`);
    const requests = page.getByTestId('request');
    await requests.nth(1).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('exchange').count()).toBe(0);

    await requests.nth(0).getByTestId('show-exchange').click();
    const exchange = requests.nth(0).getByTestId('exchange');
    await exchange.waitFor({ timeout: 30_000 });
    const system = (await exchange.getByTestId('exchange-system').textContent()) ?? '';
    expect(system).toContain(JSON.stringify(SYSTEM));
    const tools = (await exchange.getByTestId('exchange-tools').textContent()) ?? '';
    expect(tools).toContain('"lookup_order"');
    expect(tools).toContain('Look an order up by its number.');
    const response = (await exchange.getByTestId('exchange-response').textContent()) ?? '';
    expect(response).toContain('"tool_calls"');
    expect(response).toContain(JSON.stringify('{"order":1234}'));

    // What the system message and the tool's description hold is text: nothing of it became an element or ran.
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // Nodes open and close: the body's messages are closed at first, a click opens them and shows the user's words.
    const body = exchange.getByTestId('exchange-body');
    const messages = body.locator('details.json-node', {
      has: page.locator(':scope > summary', { hasText: 'messages' }),
    });
    expect(await messages.first().evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await body.getByText('"Where is 1234?"').isVisible()).toBe(false);
    await messages.first().locator(':scope > summary').click();
    expect(await messages.first().evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    const userMessage = messages.first().locator(':scope > .json-children > details').nth(1);
    await userMessage.locator(':scope > summary').click();
    expect(await body.getByText('"Where is 1234?"').isVisible()).toBe(true);
    await messages.first().locator(':scope > summary').click();
    expect(await body.getByText('"Where is 1234?"').isVisible()).toBe(false);

    // The second request's response holds the hostile answer: text too, once opened.
    await requests.nth(1).getByTestId('show-exchange').click();
    const second = requests.nth(1).getByTestId('exchange-response');
    await second.waitFor({ timeout: 30_000 });
    expect(await second.textContent()).toContain(JSON.stringify(`Order 1234 has shipped. ${HOSTILE}`));
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await requests.nth(1).getByTestId('show-exchange').click();
    expect(await requests.nth(1).getByTestId('exchange').count()).toBe(0);

    // The docs' screenshot is written only when asked for, so that a test run leaves the tracked PNG as it is.
    await messages.first().locator(':scope > summary').click();
    const shot = await requests.nth(0).screenshot({ ...(WRITE_SCREENSHOTS ? { path: SCREENSHOT } : {}) });
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
