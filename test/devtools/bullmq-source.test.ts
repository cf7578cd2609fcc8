import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { AgentRuns, listRuns } from '../../src/bullmq';
import { startDevtools } from '../../src/devtools';
import { bullmqRunSource } from '../../src/devtools/queue';
import type { Devtools, RunPage, RunSummary } from '../../src/devtools';
import { defineAgent } from '../../src';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../src/testing';
import { launchChromium } from '../helpers/chromium';
import { unusedPort } from '../helpers/network';
import { fakeTool, user } from '../helpers/tools';
import { apiUrl, eventually, rawRequest } from './helpers';

/** A redis-server of this file's own, on a fixed port, so that it can be stopped and started again. */
async function redisOn(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' ? new Error('These tests need redis-server (apt-get install -y redis-server).') : error,
      ),
    );
  });
  child.stdout.resume();
  return child;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('the devtools page over AgentRuns on a real Redis', () => {
  let port: number;
  let redis: ChildProcess;
  let server: ScriptedServer;
  let runs: AgentRuns;
  let connection: Redis;
  let devtools: Devtools;

  beforeAll(async () => {
    port = await unusedPort();
    redis = await redisOn(port);
    server = await startScriptedServer();
    runs = new AgentRuns({ connection: { host: '127.0.0.1', port }, secret: 'k' });
    const gated = fakeTool('delete_file', () => ({ response: 'deleted' }), { needsApproval: true });
    runs.worker({ setup: async () => ({ client: server.client(), tools: [gated] }) });
    connection = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
    connection.on('error', () => undefined);
    devtools = await startDevtools({ source: bullmqRunSource({ runs, connection, pollMs: 200, timeoutMs: 1500 }) });
  });
  afterAll(async () => {
    await devtools.close();
    await runs.close();
    connection.disconnect();
    await server.close();
    await stop(redis);
  });

  const getJson = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await rawRequest(apiUrl(devtools.url, path));
    return { status: res.status, body: JSON.parse(res.body) as T };
  };

  it('listRuns lists the runs under a prefix, newest first, with their model', async () => {
    await runs.start({ runId: 'listed-1', body: { model: 'm-one', messages: [user('a')] } });
    await runs.start({ runId: 'listed-2', body: { model: 'm-two', messages: [user('b')] } });
    server.enqueue({ text: 'one' }, { text: 'two' });
    const listed = await listRuns(connection);
    expect(listed.map((run) => run.runId)).toEqual(expect.arrayContaining(['listed-1', 'listed-2']));
    expect(listed.find((run) => run.runId === 'listed-2')).toMatchObject({ model: 'm-two' });
    expect(await listRuns(connection, { prefix: 'other' })).toEqual([]);
    await runs.wait('listed-1');
    await runs.wait('listed-2');
  });

  it('lists through the runs themselves (their store) when given no Redis connection', async () => {
    server.enqueue({ text: 'three' });
    const { runId } = await runs.start({ runId: 'listed-3', body: { model: 'm-three', messages: [user('c')] } });
    await runs.wait(runId);
    expect((await runs.list()).find((run) => run.runId === runId)).toMatchObject({ status: 'completed' });
    const source = bullmqRunSource({ runs, pollMs: 200 });
    try {
      const listed = await source.list();
      expect(listed.find((run) => run.runId === runId)).toMatchObject({ status: 'completed', model: 'm-three' });
      expect(listed.map((run) => run.runId).sort()).toEqual(
        (await listRuns(connection)).map((run) => run.runId).sort(),
      );
    } finally {
      await source.close?.();
    }
  });

  it("draws a queued run's agent under the call that started it, from the agentPath its events carry", async () => {
    const agentRuns = new AgentRuns({ connection: { host: '127.0.0.1', port }, queueName: 'agents', secret: 'k' });
    const model = await startScriptedServer();
    const source = bullmqRunSource({ runs: agentRuns, pollMs: 200 });
    try {
      const lookup = fakeTool('lookup', () => ({ response: 'found it' }));
      const research = defineAgent({ name: 'research', description: 'R', instructions: 'R.', tools: [lookup] });
      const reply = (request: RecordedRequest) => {
        const messages = request.body.messages as { role: string; content?: unknown }[];
        const child = messages[0].role === 'system' && messages[0].content === 'R.';
        const answered = messages.some((m) => m.role === 'tool');
        if (child) return answered ? { text: 'child text' } : { toolCalls: [{ id: 'l1', name: 'lookup' }] };
        return answered
          ? { text: 'root text' }
          : { toolCalls: [{ id: 'call_r', name: 'research', arguments: { task: 'look' } }] };
      };
      model.enqueue(reply, reply, reply, reply);
      agentRuns.worker({ setup: async () => ({ client: model.client(), tools: [research] }) });
      const { runId } = await agentRuns.start({ body: { model: 'm', messages: [user('go')] } });
      await agentRuns.wait(runId, { timeoutMs: 30_000 });
      const page = await eventually(async () => {
        const read = await source.page(runId, { offset: 0, limit: 100, maxChars: 4000 });
        // The record says completed at once; the events are read in behind it.
        const ended = read?.items.filter((item) => item.kind === 'tool' && item.response !== undefined).length;
        return ended === 2 ? read : undefined;
      });
      const tools = page.items.flatMap((item) =>
        item.kind === 'tool' ? [[item.agentPath ?? [], item.callId, item.name, item.response?.text]] : [],
      );
      expect(tools).toEqual([
        [[], 'call_r', 'research', 'child text'],
        [['call_r'], 'l1', 'lookup', 'found it'],
      ]);
    } finally {
      await source.close?.();
      await agentRuns.close();
      await model.close();
    }
  });

  it('shows a run no worker has taken yet as queued, with its input and model, in the list and on its page', async () => {
    // A queue no worker serves: its runs stay queued.
    const idle = new AgentRuns({ connection: { host: '127.0.0.1', port }, queueName: 'idle', secret: 'k' });
    const source = bullmqRunSource({ runs: idle, pollMs: 200 });
    try {
      const { runId } = await idle.start({
        runId: 'not-taken',
        body: { model: 'm-queued', messages: [user('Summarise the report')] },
      });
      const listed = await eventually(async () => (await source.list()).find((run) => run.runId === runId));
      expect(listed).toMatchObject({ status: 'queued', model: 'm-queued', input: 'Summarise the report', turns: 0 });
      const page = await source.page(runId, { offset: -1, limit: 100, maxChars: 4000 });
      expect(page?.summary).toMatchObject({ status: 'queued', model: 'm-queued', input: 'Summarise the report' });
      expect(page?.pending).toEqual([]);
      expect(page?.error).toBeUndefined();
      expect(page?.canCancel).toBe(true);
      // The page says so, with what was asked, rather than an empty timeline.
      const shown = await startDevtools({ source });
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        await tab.goto(`${shown.url}#/run/${runId}`);
        await tab.getByTestId('queued-note').waitFor();
        expect(await tab.getByTestId('run-status').textContent()).toBe('queued');
        expect(await tab.getByTestId('run-input').textContent()).toBe('Summarise the report');
      } finally {
        await browser.close();
        await shown.close();
      }
    } finally {
      await source.close?.();
      await idle.close();
    }
  });

  it('shows a run and decides it with its resume token', async () => {
    server.enqueue({ toolCalls: [{ id: 'd1', name: 'delete_file', arguments: { path: '/tmp/x' } }] }, { text: 'gone' });
    const { runId } = await runs.start({ runId: 'to-decide', body: { model: 'm', messages: [user('delete')] } });
    await runs.wait(runId);
    const page = await eventually(async () => {
      const { body } = await getJson<RunPage>(`/api/runs/${runId}`);
      return body.pending?.length ? body : undefined;
    });
    expect(page.summary.status).toBe('waiting');
    expect(page.pending).toEqual([
      { callId: 'd1', key: 'd1', name: 'delete_file', kind: 'approval', arguments: '{"path":"/tmp/x"}' },
    ]);
    const res = await rawRequest(apiUrl(devtools.url, `/api/runs/${runId}/decide`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decisions: { d1: { approve: false, reason: 'keep it' } } }),
    });
    expect(res.status).toBe(200);
    const done = await runs.wait(runId);
    expect(done.status).toBe('completed');
    const tool = await eventually(async () => {
      const { body } = await getJson<RunPage>(`/api/runs/${runId}`);
      return body.items.find((item) => item.kind === 'tool' && item.response);
    });
    expect(tool).toMatchObject({ name: 'delete_file', response: { text: 'Tool call rejected by the user: keep it' } });
  });

  it('says Redis is unreachable while it is down, and recovers when it returns', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(devtools.url);
      await page.getByTestId('run-list').waitFor();
      await stop(redis);
      const down = await eventually(async () => {
        const res = await getJson<{ error?: string }>('/api/runs');
        return res.status === 503 ? res.body : undefined;
      });
      expect(down.error).toMatch(/Redis (is unreachable|did not answer)/);
      const banner = page.getByTestId('problem');
      await banner.waitFor({ timeout: 20_000 });
      expect(await banner.textContent()).toMatch(/Redis (is unreachable|did not answer)/);
      redis = await redisOn(port);
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      await eventually(async () => {
        const res = await getJson<{ runs: RunSummary[]; problem: string | null }>('/api/runs');
        return res.status === 200 && res.body.problem === null ? true : undefined;
      }, 20_000);
      // A run started after the return shows up.
      server.enqueue({ text: 'back' });
      await runs.start({ runId: 'after-return', body: { model: 'm', messages: [user('hi')] } });
      await eventually(async () => {
        const res = await getJson<{ runs: RunSummary[] }>('/api/runs');
        return res.body.runs?.some((run) => run.runId === 'after-return') ? true : undefined;
      }, 20_000);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
