/**
 * Question: how long does the devtools page take to open a long run? A run of 300 turns (each a streamed text,
 * a tool call and its 2 KB result) recorded in process, then the run's page opened in a headless Chromium 7 times:
 * from `page.goto` to the newest timeline entries and the answer on screen. Budget: under a second.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'esbuild';
import { runAgentLoop } from '../src/run-agent-loop';
import { createRunRecorder, startDevtools } from '../src/devtools';
import { startScriptedServer } from '../src/testing';
import type { ToolDefinition } from '../src/toolCall/type';
import { median, report } from './lib/harness';

const TURNS = 300;
const OPENS = 7;

export async function devtoolsOpen(): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`devtools open needs Chromium at ${executablePath} (apt-get install chromium)`);
  await bundlePage();
  const server = await startScriptedServer({ chunkSize: 64 });
  const recorder = createRunRecorder();
  const devtools = await startDevtools({ source: recorder.source });
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    const lookup: ToolDefinition = {
      schema: { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
      execute: async ({ call }) => ({ response: `${call.id}: ${'r'.repeat(2048)}` }),
    };
    for (let i = 0; i < TURNS - 1; i++)
      server.enqueue({
        text: `Turn ${i}: looking it up. `.repeat(8),
        toolCalls: [{ name: 'lookup', arguments: { i } }],
      });
    server.enqueue({ text: 'Done.' });
    const props = {
      client: server.client(),
      body: { model: 'bench', messages: [{ role: 'user' as const, content: 'go' }] },
      tools: [lookup],
      runId: 'long-run',
      maxRunAgentTimes: TURNS,
      maxConsecutiveToolTurns: 0,
    };
    const result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
    recorder.finish(result);
    if (result.state.turn !== TURNS) throw new Error(`expected ${TURNS} turns, got ${result.state.turn}`);

    const shown: number[] = [];
    for (let i = 0; i < OPENS; i++) {
      const page = await browser.newPage();
      const start = performance.now();
      await page.goto(`${devtools.url}#/run/long-run`);
      await page.getByTestId('answer').waitFor();
      shown.push(performance.now() - start);
      await page.close();
    }
    console.log(
      `devtools open: a recorded run of ${TURNS} turns (${TURNS - 1} tool calls of 2 KB), page opened ${OPENS} times`,
    );
    report('goto → newest entries and the answer shown (median)', median(shown), 'ms');
    report('slowest of the opens', Math.max(...shown), 'ms');
  } finally {
    await browser.close();
    await devtools.close();
    await server.close();
  }
}

/** The compiled bench has no built page beside it: bundle it where the server looks for it. */
async function bundlePage(): Promise<void> {
  const target = join(__dirname, '../src/devtools/ui');
  if (existsSync(join(target, 'app.js'))) return;
  await build({
    entryPoints: { app: join(__dirname, '../../src/devtools/ui/main.ts') },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    outdir: target,
    logLevel: 'warning',
  });
}

if (require.main === module) void devtoolsOpen();
