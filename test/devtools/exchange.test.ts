import fc from 'fast-check';
import { runAgentLoop } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import type { Devtools, RequestExchange, RunPage, RunRecorder } from '../../src/devtools';
import { cappedJson } from '../../src/devtools/capped-json';
import { KEPT_BODIES, RunModel } from '../../src/devtools/run-model';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { apiUrl, rawRequest } from './helpers';

const SYSTEM = 'You answer about orders. Never refund without approval.';

describe('a request as sent and its response, from the in-process recorder', () => {
  let server: ScriptedServer;
  let recorder: RunRecorder;
  let devtools: Devtools;
  const lookup = fakeTool('lookup_order', ({ call }) => ({ response: `order ${call.function.arguments}: shipped` }));

  beforeEach(async () => {
    server = await startScriptedServer();
    recorder = createRunRecorder();
    devtools = await startDevtools({ source: recorder.source });
  });
  afterEach(async () => {
    await devtools.close();
    await server.close();
  });

  const get = (path: string) => rawRequest(apiUrl(devtools.url, path));

  it('serves each turn’s system message, tool schemas, whole body and response', async () => {
    server.enqueue(
      { text: 'Looking it up.', toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { order: 7 } }] },
      { text: 'Order 7 has shipped.' },
    );
    const props = {
      client: server.client(),
      body: {
        model: 'gpt-test',
        temperature: 0.2,
        messages: [{ role: 'system' as const, content: SYSTEM }, user('Where is 7?')],
      },
      tools: [lookup],
      runId: 'exchange-run',
    };
    recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));

    const page = JSON.parse((await get('/api/runs/exchange-run')).body) as RunPage;
    const requests = page.items.filter((item) => item.kind === 'request');
    expect(requests.map((r) => r.kind === 'request' && r.hasExchange)).toEqual([true, true]);
    const [first, second] = await Promise.all(
      requests.map(
        async (r) =>
          JSON.parse((await get(`/api/runs/exchange-run/exchange?index=${r.index}`)).body) as RequestExchange,
      ),
    );

    expect(first.system).toEqual([{ role: 'system', content: SYSTEM }]);
    expect(first.tools).toEqual([lookup.schema]);
    const body = first.body as { model: string; temperature: number; messages: unknown[]; tool_choice: string };
    expect(body).toMatchObject({ model: 'gpt-test', temperature: 0.2, tool_choice: 'auto' });
    expect(body.messages).toHaveLength(2);
    expect(first.response).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Looking it up.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order":7}' } }],
      },
    });
    // The second request carries the history as it was then (the first request's copy did not grow with it).
    const later = (second.body as { messages: { role: string; content?: unknown }[] }).messages;
    expect(later.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(later[3].content).toBe('order {"order":7}: shipped');
    expect(second.response).toMatchObject({ finish_reason: 'stop', message: { content: 'Order 7 has shipped.' } });
    // What the body sent is what the endpoint received.
    expect(server.requests[1].body).toMatchObject({ model: 'gpt-test', temperature: 0.2 });
    expect((server.requests[1].body as { messages: unknown[] }).messages).toHaveLength(4);

    // A tool entry has no request body; an entry past the end neither.
    const tool = page.items.find((item) => item.kind === 'tool')!;
    expect((await get(`/api/runs/exchange-run/exchange?index=${tool.index}`)).status).toBe(404);
    expect((await get('/api/runs/exchange-run/exchange?index=99')).status).toBe(404);
  });

  it('caps what the model wrote: a long answer reaches the page cut, and says how much was left out', async () => {
    server.enqueue({ text: 'x'.repeat(50_000) });
    const props = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('long')] },
      tools: [],
      runId: 'long-run',
    };
    recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
    const res = await get('/api/runs/long-run/exchange?index=0');
    const content = (JSON.parse(res.body) as { response: { message: { content: string } } }).response.message.content;
    expect(content).toBe(`${'x'.repeat(4000)}… (46,000 more characters)`);
    expect(res.body.length).toBeLessThan(6000);
  });
});

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** Strings and containers in a value. */
function count(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + Object.values(value as Record<string, unknown>).reduce<number>((n, v) => n + count(v), 0);
}

describe('cappedJson', () => {
  it('keeps a value within its limits as it is', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(cappedJson(value, { maxString: 100, maxNodes: 100_000, maxDepth: 100 })).toEqual(value);
      }),
      { seed: 47, numRuns: 300 },
    );
  });

  it('bounds what it gives back, whatever the value: strings, values in all, and depth', () => {
    fc.assert(
      fc.property(
        json,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        (value, maxNodes, maxDepth) => {
          const out = cappedJson(value, { maxString: 10, maxNodes, maxDepth });
          // Each container adds at most one "… more entries" string to what the budget let through.
          expect(count(out)).toBeLessThanOrEqual(2 * maxNodes + 2);
          const walk = (v: unknown, depth: number): void => {
            if (typeof v === 'string') expect(v.length).toBeLessThanOrEqual(60);
            if (v !== null && typeof v === 'object') {
              expect(depth).toBeLessThanOrEqual(maxDepth);
              Object.values(v as Record<string, unknown>).forEach((child) => walk(child, depth + 1));
            }
          };
          walk(out, 0);
        },
      ),
      { seed: 47, numRuns: 300 },
    );
  });
});

describe('the bodies a long run keeps', () => {
  it('keeps the newest KEPT_BODIES request bodies, so a run holds a bounded number of history copies', () => {
    const run = new RunModel('long');
    const history: unknown[] = [];
    for (let i = 0; i < KEPT_BODIES + 5; i++) {
      history.push(user(`turn ${i}`));
      run.startRequest({ model: 'gpt-test', messages: history });
      run.addText(`answer ${i}`);
      run.endRequest({ ms: 1 });
    }
    expect(run.exchange(0)).toBeUndefined();
    expect(run.exchange(4)).toBeUndefined();
    expect((run.exchange(5)?.body as { messages: unknown[] }).messages).toHaveLength(6);
    const last = run.exchange(KEPT_BODIES + 4)!;
    expect((last.body as { messages: unknown[] }).messages).toHaveLength(KEPT_BODIES + 5);
    expect(last.response).toMatchObject({ message: { content: `answer ${KEPT_BODIES + 4}` } });
    const page = run.page({ offset: 0, limit: 10, maxChars: 100 }, { canDecide: false, canCancel: false });
    expect(page.items.map((item) => item.kind === 'request' && item.hasExchange)).toEqual([
      ...Array(5).fill(false),
      ...Array(5).fill(true),
    ]);
  });
});
