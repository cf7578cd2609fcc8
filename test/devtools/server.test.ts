import { runAgentLoop } from '../../src';
import { createRunRecorder, startDevtools } from '../../src/devtools';
import type { Devtools, RunPage, RunRecorder, RunSummary } from '../../src/devtools';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { fakeTool, user } from '../helpers/tools';
import { apiUrl, eventually, rawRequest } from './helpers';

describe('the devtools server over an in-process recorder', () => {
  let server: ScriptedServer;
  let recorder: RunRecorder;
  let devtools: Devtools;
  const lookup = fakeTool('lookup', ({ call }) => ({ response: `found ${call.function.arguments}` }));

  beforeEach(async () => {
    server = await startScriptedServer();
    recorder = createRunRecorder({ maxRuns: 3 });
    devtools = await startDevtools({ source: recorder.source, pricing: { 'gpt-test': { input: 1, output: 2 } } });
  });
  afterEach(async () => {
    await devtools.close();
    await server.close();
  });

  const getJson = async <T>(path: string) => {
    const res = await rawRequest(apiUrl(devtools.url, path));
    expect(res.status).toBe(200);
    return JSON.parse(res.body) as T;
  };

  async function recordRun(runId: string, turns: Parameters<ScriptedServer['enqueue']>) {
    server.enqueue(...turns);
    const props = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('hi')] },
      tools: [lookup],
      runId,
    };
    const result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
    recorder.finish(result);
    return result;
  }

  it('is bound to 127.0.0.1 with a random token in its URL', async () => {
    const url = new URL(devtools.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[0-9a-f]{48}$/);
    const other = await startDevtools({ source: recorder.source });
    expect(new URL(other.url).searchParams.get('token')).not.toBe(url.searchParams.get('token'));
    await other.close();
  });

  it('answers a missing or wrong token with 401 and shows nothing', async () => {
    const url = new URL(devtools.url);
    await recordRun('secret-run', [{ text: 'private words' }]);
    for (const path of ['/', '/app.js', '/api/runs', '/api/runs/secret-run', '/api/events']) {
      const missing = await rawRequest(`${url.origin}${path}`);
      expect(missing.status).toBe(401);
      expect(missing.body).toBe('Unauthorized');
      const wrong = await rawRequest(`${url.origin}${path}?token=${'0'.repeat(48)}`);
      expect(wrong.status).toBe(401);
      expect(wrong.body).not.toContain('private');
    }
    const ok = await rawRequest(apiUrl(devtools.url, '/api/runs/secret-run'));
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('private words');
  });

  it('refuses another Host or Origin with 403, even with the token (DNS rebinding)', async () => {
    const page = apiUrl(devtools.url, '/api/runs');
    expect((await rawRequest(page, { headers: { host: 'evil.example:80' } })).status).toBe(403);
    expect((await rawRequest(page, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await rawRequest(page, { headers: { host: 'localhost' } })).status).toBe(200);
    expect((await rawRequest(page, { headers: { origin: new URL(devtools.url).origin } })).status).toBe(200);
    const decide = await rawRequest(apiUrl(devtools.url, '/api/runs/x/decide'), {
      method: 'POST',
      headers: { origin: 'http://attacker.test', 'content-type': 'application/json' },
      body: '{"decisions":{"c":{"approve":true}}}',
    });
    expect(decide.status).toBe(403);
  });

  it('refuses a token under 32 characters: an empty one never turns authentication off', async () => {
    for (const token of ['', 'x', 'y'.repeat(31)])
      await expect(startDevtools({ source: recorder.source, token })).rejects.toThrow(
        /token must be at least 32 characters/,
      );
    const long = await startDevtools({ source: recorder.source, token: 'z'.repeat(32) });
    try {
      expect((await rawRequest(`${new URL(long.url).origin}/api/runs`)).status).toBe(401);
      expect((await rawRequest(apiUrl(long.url, '/api/runs'))).status).toBe(200);
    } finally {
      await long.close();
    }
  });

  it('moves the token from the address into an HttpOnly, SameSite=Strict cookie of this page only', async () => {
    const url = new URL(devtools.url);
    const opened = await rawRequest(devtools.url);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/');
    const [cookie] = opened.headers['set-cookie'] as string[];
    expect(cookie).toBe(
      `agentcall-devtools-${url.port}=${url.searchParams.get('token')}; Path=/; HttpOnly; SameSite=Strict`,
    );
    const jar = cookie.split(';')[0];
    const page = await rawRequest(`${url.origin}/`, { headers: { cookie: jar, 'sec-fetch-site': 'none' } });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(url.searchParams.get('token'));
    for (const path of ['/app.js', '/app.css', '/api/runs'])
      expect((await rawRequest(`${url.origin}${path}`, { headers: { cookie: jar } })).status).toBe(200);
    // Another site of this machine (another port is the same site) cannot ride on the cookie.
    for (const site of ['cross-site', 'same-site'])
      expect(
        (await rawRequest(`${url.origin}/api/runs`, { headers: { cookie: jar, 'sec-fetch-site': site } })).status,
      ).toBe(401);
    // Another page's cookie is not this page's.
    const other = await startDevtools({ source: recorder.source });
    try {
      const otherUrl = new URL(other.url);
      const otherJar = `agentcall-devtools-${url.port}=${otherUrl.searchParams.get('token')}`;
      expect((await rawRequest(`${url.origin}/api/runs`, { headers: { cookie: otherJar } })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('serves the page with a policy that loads nothing from elsewhere', async () => {
    const url = new URL(devtools.url);
    const res = await rawRequest(`${url.origin}/`, { headers: { 'x-devtools-token': url.searchParams.get('token')! } });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<script src="/app.js">');
    expect(res.body).not.toContain(new URL(devtools.url).searchParams.get('token'));
    const js = await rawRequest(apiUrl(devtools.url, '/app.js'));
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('devtools');
    // Only the page's own script and style sheet are loaded.
    expect([...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1].split('?')[0])).toEqual([
      '/app.css',
      '/app.js',
    ]);
  });

  it('lists runs with their numbers and shows one as a timeline of requests and tool calls', async () => {
    await recordRun('run-1', [
      { reasoning: 'let me look', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }] },
      { text: 'the answer', usage: { prompt_tokens: 100, completion_tokens: 50 } },
    ]);
    const { runs } = await getJson<{ runs: RunSummary[] }>('/api/runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: 'run-1', status: 'completed', model: 'gpt-test', turns: 2, toolCalls: 1 });
    expect(runs[0].stopReason).toBe('completed');
    expect(runs[0].cost).toBeCloseTo((runs[0].inputTokens * 1 + runs[0].outputTokens * 2) / 1e6);
    const page = await getJson<RunPage>('/api/runs/run-1');
    const kinds = page.items.map((item) => item.kind);
    expect(kinds).toEqual(['request', 'tool', 'request', 'status']);
    const [first, tool, second] = page.items;
    expect(first).toMatchObject({ kind: 'request', model: 'gpt-test', reasoning: { text: 'let me look' } });
    expect(tool).toMatchObject({ kind: 'tool', name: 'lookup', outcome: 'ok', response: { text: 'found {"q":"x"}' } });
    expect(second).toMatchObject({ kind: 'request', text: { text: 'the answer' }, outputTokens: 50, inputTokens: 100 });
    if (second.kind === 'request') expect(second.durationMs).toBeGreaterThanOrEqual(0);
    expect(page.text).toBe('the answer');
  });

  it('keeps at most maxRuns runs', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await recordRun(id, [{ text: id }]);
    const { runs } = await getJson<{ runs: RunSummary[] }>('/api/runs');
    expect(runs.map((run) => run.runId).sort()).toEqual(['b', 'c', 'd']);
    expect((await rawRequest(apiUrl(devtools.url, '/api/runs/a'))).status).toBe(404);
  });

  it('pushes changes over SSE while a run streams', async () => {
    const events: string[] = [];
    const controller = new AbortController();
    const res = await fetch(apiUrl(devtools.url, '/api/events'), { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        events.push(Buffer.from(value).toString('utf8'));
      }
    })().catch(() => undefined);
    await recordRun('live', [{ text: 'x'.repeat(200), chunkSize: 10, chunkDelayMs: 5 }]);
    await eventually(() => events.join('').includes('"live"'));
    controller.abort();
    await reading;
  });

  it('cuts long texts on a page and gives the whole text on request (10 MB of streamed text)', async () => {
    const big = `${'<b>'.repeat(10)}${'y'.repeat(10 * 1024 * 1024)}`;
    await recordRun('big', [{ text: big, chunkSize: 256 * 1024 }]);
    const page = await getJson<RunPage>('/api/runs/big');
    const request = page.items[0];
    if (request.kind !== 'request') throw new Error('expected a request');
    expect(request.text.length).toBe(big.length);
    expect(request.text.text.length).toBeLessThanOrEqual(4000);
    expect(JSON.stringify(page).length).toBeLessThan(20_000);
    const whole = await rawRequest(apiUrl(devtools.url, '/api/runs/big/text?index=0&field=text'));
    expect(whole.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(whole.body.length).toBe(big.length);
  });

  it('pages a run of 1,000 tool calls', async () => {
    const calls = Array.from({ length: 50 }, (_, i) => ({ name: 'lookup', arguments: { i } }));
    const turns = Array.from({ length: 20 }, () => ({ toolCalls: calls }));
    server.enqueue(...turns, { text: 'done' });
    const props = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('go')] },
      tools: [lookup],
      runId: 'many',
      maxRunAgentTimes: 30,
      maxConsecutiveToolTurns: 0,
    };
    recorder.finish(await runAgentLoop({ ...props, ...recorder.hooks(props) }));
    const first = await getJson<RunPage>('/api/runs/many?offset=0&limit=100');
    expect(first.summary.toolCalls).toBe(1000);
    expect(first.total).toBe(1000 + 21 + 1);
    expect(first.items).toHaveLength(100);
    const capped = await getJson<RunPage>('/api/runs/many?offset=900&limit=100000');
    expect(capped.items.length).toBeLessThanOrEqual(200);
    expect(capped.offset).toBe(900);
  });

  it('approves a pending call from the page through the app’s resume', async () => {
    const resumed: unknown[] = [];
    const gated = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const approvals = createRunRecorder({
      resume: async ({ state, decisions }) => {
        resumed.push(decisions);
        const props = { client: server.client(), body: { model: 'gpt-test', messages: [] }, tools: [gated] };
        approvals.finish(
          await runAgentLoop({
            ...props,
            resumeFrom: state,
            decisions,
            ...approvals.hooks({ ...props, resumeFrom: state, decisions }),
          }),
        );
      },
    });
    const tools = await startDevtools({ source: approvals.source });
    try {
      server.enqueue({ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 5 } }] }, { text: 'all paid' });
      const props = { client: server.client(), body: { model: 'gpt-test', messages: [user('pay')] }, tools: [gated] };
      approvals.finish(await runAgentLoop({ ...props, ...approvals.hooks(props) }));
      const [summary] = (JSON.parse((await rawRequest(apiUrl(tools.url, '/api/runs'))).body) as { runs: RunSummary[] })
        .runs;
      expect(summary.status).toBe('waiting');
      const page = JSON.parse((await rawRequest(apiUrl(tools.url, `/api/runs/${summary.runId}`))).body) as RunPage;
      expect(page.pending).toEqual([
        { callId: 'p1', key: 'p1', name: 'pay', kind: 'approval', arguments: '{"amount":5}' },
      ]);
      expect(page.canDecide).toBe(true);
      const bad = await rawRequest(apiUrl(tools.url, `/api/runs/${summary.runId}/decide`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"decisions":{"p1":{"approve":"yes"}}}',
      });
      expect(bad.status).toBe(400);
      const formPost = await rawRequest(apiUrl(tools.url, `/api/runs/${summary.runId}/decide`), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decisions=1',
      });
      expect(formPost.status).toBe(415);
      const ok = await rawRequest(apiUrl(tools.url, `/api/runs/${summary.runId}/decide`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"decisions":{"p1":{"approve":true}}}',
      });
      expect(ok.status).toBe(200);
      expect(resumed).toEqual([{ p1: { approve: true } }]);
      const after = JSON.parse((await rawRequest(apiUrl(tools.url, `/api/runs/${summary.runId}`))).body) as RunPage;
      expect(after.summary.status).toBe('completed');
      expect(after.items.filter((item) => item.kind === 'tool')).toMatchObject([{ name: 'pay', outcome: 'ok' }]);
    } finally {
      await tools.close();
    }
  });

  it('gathers decisions until every pending call has one, then resumes once with all of them', async () => {
    const resumed: unknown[] = [];
    const pay = fakeTool('pay', () => ({ response: 'paid' }), { needsApproval: true });
    const refund = fakeTool('refund', () => ({ response: 'refunded' }), { needsApproval: true });
    const approvals = createRunRecorder({ resume: ({ decisions }) => resumed.push(decisions) });
    const tools = await startDevtools({ source: approvals.source });
    const decide = (runId: string, body: string) =>
      rawRequest(apiUrl(tools.url, `/api/runs/${runId}/decide`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    try {
      server.enqueue({
        toolCalls: [
          { id: 'p1', name: 'pay', arguments: { amount: 5 } },
          { id: 'r1', name: 'refund', arguments: {} },
        ],
      });
      const props = {
        client: server.client(),
        body: { model: 'gpt-test', messages: [user('pay')] },
        tools: [pay, refund],
        runId: 'two',
      };
      approvals.finish(await runAgentLoop({ ...props, ...approvals.hooks(props) }));

      const none = await decide('two', '{"decisions":{}}');
      expect(none.status).toBe(400);
      expect(JSON.parse(none.body)).toMatchObject({ name: 'InvalidDecisionsError' });
      const first = await decide('two', '{"decisions":{"p1":{"approve":true}}}');
      expect(JSON.parse(first.body)).toEqual({ ok: true, undecided: ['r1'] });
      expect(resumed).toEqual([]);
      const page = JSON.parse((await rawRequest(apiUrl(tools.url, '/api/runs/two'))).body) as RunPage;
      expect(page.pending.map((p) => [p.callId, p.decided])).toEqual([
        ['p1', 'approved'],
        ['r1', undefined],
      ]);
      expect((await decide('two', '{"decisions":{"x9":{"approve":true}}}')).status).toBe(409);
      const last = await decide('two', '{"decisions":{"r1":{"approve":false,"reason":"no"}}}');
      expect(JSON.parse(last.body)).toEqual({ ok: true, undecided: [] });
      expect(resumed).toEqual([{ p1: { approve: true }, r1: { approve: false, reason: 'no' } }]);
    } finally {
      await tools.close();
    }
  });

  it('cancels a running run', async () => {
    server.enqueue({ text: 'z'.repeat(400), chunkSize: 4, chunkDelayMs: 20 });
    const props = {
      client: server.client(),
      body: { model: 'gpt-test', messages: [user('hi')] },
      tools: [lookup],
      runId: 'slow',
    };
    const running = runAgentLoop({ ...props, ...recorder.hooks(props) });
    await eventually(async () => {
      const res = await rawRequest(apiUrl(devtools.url, '/api/runs/slow'));
      return res.status === 200 && (JSON.parse(res.body) as RunPage).canCancel;
    });
    const res = await rawRequest(apiUrl(devtools.url, '/api/runs/slow/cancel'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const result = await running;
    expect(result.stopReason).toBe('aborted');
    recorder.finish(result);
    const page = await getJson<RunPage>('/api/runs/slow');
    expect(page.summary.status).toBe('cancelled');
  });

  it('shows what the model or its endpoint chose masked and cut: errors, tool and model names', async () => {
    const secret = 'sk-proj-' + 'a1B2c3D4'.repeat(6);
    const longName = `${'n'.repeat(5000)}${secret}`;
    await recordRun('masked', [
      { toolCalls: [{ id: 'c1', name: longName, arguments: {} }] },
      {
        status: 400,
        errorMessage: `bad key ${secret} at https://user:pw@gateway.example/v1?key=${secret}\n    at x (y.js:1:1)`,
      },
    ]);
    const page = await getJson<RunPage>('/api/runs/masked');
    const text = JSON.stringify(page);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('pw@');
    expect(text).not.toContain('y.js');
    expect(page.error).toMatch(/^\w*Error: 400 bad key \[redacted/);
    const tool = page.items.find((item) => item.kind === 'tool')!;
    expect(tool.kind === 'tool' && tool.name.length).toBeLessThanOrEqual(200);
    const request = page.items.filter((item) => item.kind === 'request')[1];
    expect(request.kind === 'request' && request.error).toMatch(/^\w*Error: 400 bad key \[redacted/);
  });

  it('a run without the recorder’s hooks is not recorded', async () => {
    server.enqueue({ text: 'unseen' });
    await runAgentLoop({ client: server.client(), body: { model: 'gpt-test', messages: [user('hi')] }, tools: [] });
    expect((await getJson<{ runs: RunSummary[] }>('/api/runs')).runs).toEqual([]);
  });
});
