import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import { runAgentLoop, type FallbackEntry, type RunState } from '../../src';
import { startScriptedServer } from '../../src/testing';
import { weatherTool } from '../handwritten/weather-tool';

/**
 * A run whose model is rate-limited moves to a backup model on another endpoint and finishes there; resumed, it
 * stays there. The two endpoints are scripted servers here (the main one answers 429); in an app they are two
 * providers, or two deployments.
 */
export async function checkFallback(): Promise<void> {
  const mainServer = await startScriptedServer({ turns: [{ status: 429, errorMessage: 'Rate limit reached' }] });
  const backupServer = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      { text: 'Sunny in Paris.' },
      { text: 'Mild tomorrow.' },
    ],
  });
  try {
    await runWithFallback(mainServer.client(), backupServer.client());
    // The main model got one request: the resumed run did not try it again.
    assert.equal(mainServer.requests.length, 1);
  } finally {
    await Promise.all([mainServer.close(), backupServer.close()]);
  }
}

async function runWithFallback(main: OpenAI, backup: OpenAI): Promise<void> {
  // Tried in order after the main model fails with a 429, 408, 5xx, an overloaded error, a timeout or a refused
  // connection (once the client's own retries are spent). A 400, 401 or 403 never falls back.
  const fallback: FallbackEntry[] = [
    { model: 'backup-model', client: backup, wire: 'chat' },
    { model: 'small-model' }, // on the run's own client
  ];
  const answeredBy: string[] = [];
  const result = await runAgentLoop({
    client: main,
    body: { model: 'main-model', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
    tools: [weatherTool],
    fallback,
    onRequestEnd: ({ model, error }) => answeredBy.push(error ? `${model} failed` : model),
  });
  assert.equal(result.stopReason, 'completed');
  assert.deepEqual(answeredBy, ['main-model failed', 'backup-model', 'backup-model']);
  // Usage items name the model that answered each request, for billing.
  assert.deepEqual(
    result.usages.map((u) => u.model),
    ['backup-model', 'backup-model'],
  );
  // The state says where the run is: a resume with the same list goes on there, not on the main model.
  assert.equal(result.state.model, 'backup-model');
  assert.equal(result.state.fallbackIndex, 0);
  await resumeWhereItWas(main, fallback, result.state);
}

async function resumeWhereItWas(main: OpenAI, fallback: FallbackEntry[], state: RunState): Promise<void> {
  const resumed = await runAgentLoop({
    client: main,
    body: { model: 'main-model', messages: [] },
    tools: [weatherTool],
    fallback,
    resumeFrom: { ...state, messages: [...state.messages, { role: 'user', content: 'And tomorrow?' }] },
  });
  assert.equal(resumed.stopReason, 'completed');
  assert.equal(resumed.text, 'Mild tomorrow.');
  assert.equal(resumed.usages[0]?.model, 'backup-model');
}
