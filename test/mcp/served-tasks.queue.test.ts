import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { toolsFrom } from '../../src';
import { AgentRuns } from '../../src/bullmq';
import { createMcpHttpHandler, type McpHttpHandler, type QueuedToolCalls } from '../../src/mcp';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startWorker, type WorkerProcess } from '../bullmq/worker-processes';
import { QueuedTaskTools } from './fixtures/queued-task-tools';

// Worker processes compile the sources as they start: slow on a loaded 2-core machine.
jest.setTimeout(420_000);

const FIXTURE = join(__dirname, 'fixtures', 'queued-task-worker.ts');
/** Any result object: what a task method answers is checked by each test. */
const ANY = z.record(z.string(), z.unknown());

type Served = { url: URL; handler: McpHttpHandler; http: HttpServer; runs: AgentRuns };

describe('@Tool({ task: true }) served with tasks: { runs } is a queued job that outlives the process', () => {
  let redis: TestRedis;
  let client: Redis;
  /** A connection of its own for the blocking reads the test waits with. */
  let blocking: Redis;
  let prefix: string;
  let queueName: string;
  let env: Record<string, string>;
  const workers: WorkerProcess[] = [];
  const served: Served[] = [];

  const newRuns = () => new AgentRuns({ connection: { host: redis.host, port: redis.port }, queueName, prefix });

  async function serve(runs = newRuns()): Promise<Served> {
    const handler = createMcpHttpHandler(toolsFrom(new QueuedTaskTools(client, prefix, 'server')), {
      name: 'batch',
      version: '1.0.0',
      caller: (_auth, req) => (typeof req.headers['x-user'] === 'string' ? { user: req.headers['x-user'] } : undefined),
      tasks: { runs },
    });
    const http = createServer((req, res) => void handler(req, res));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const at = { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), handler, http, runs };
    served.push(at);
    return at;
  }

  async function stop(at: Served): Promise<void> {
    served.splice(served.indexOf(at), 1);
    await at.handler.close();
    at.http.closeAllConnections();
    await new Promise((resolve) => at.http.close(resolve));
    await at.runs.close();
  }

  /** A 2025-11-25 client (a session) of `user`: SDK v2's, its requests sent as they are. */
  async function legacyClient(at: Served, user = 'ada'): Promise<Client> {
    const mcp = new Client({ name: 'poller', version: '0.0.1' });
    await mcp.connect(new StreamableHTTPClientTransport(at.url, { requestInit: { headers: { 'x-user': user } } }));
    expect(mcp.getProtocolEra()).toBe('legacy');
    return mcp;
  }

  /** A 2025-11-25 task call of `crunch`: its task id. */
  async function startLegacy(mcp: Client, batch: string): Promise<string> {
    const created = await mcp.request(
      { method: 'tools/call', params: { name: 'crunch', arguments: { batch }, task: { ttl: 60_000 } } },
      ANY,
    );
    const task = created.task as { taskId: string; status: string; ttl: number };
    expect(task).toMatchObject({ status: 'working', ttl: 60_000 });
    return task.taskId;
  }

  /**
   * One 2026-07-28 request on the wire, declaring the tasks extension (SDK 2.4's client refuses a `tools/call` answered
   * with `resultType: 'task'`, so the request is written as the spec has it).
   */
  async function modern(at: Served, method: string, params: Record<string, unknown>, user = 'ada') {
    const response = await fetch(at.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': String(params.name ?? params.taskId),
        'x-user': user,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'poller', version: '0.0.1' },
            'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          },
        },
      }),
    });
    const text = await response.text();
    const json = text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6);
    return JSON.parse(json) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  }

  /** Wait (told by Redis, no polling) until a tool has started with `batch`. */
  async function entered(batch: string): Promise<void> {
    const [, got] = (await blocking.blpop(`${prefix}:entered`, 0))!;
    expect(got).toBe(batch);
  }

  const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0].text;
  const open = (batch: string) => client.rpush(`${prefix}:gate:${batch}`, 'go');

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: redis.host, port: redis.port });
    blocking = client.duplicate();
    prefix = `${redis.namespace}:tasks`;
    queueName = `${redis.namespace}-tasks`;
    // A short lock: a killed worker's job goes to another within about 2.5 s.
    env = { REDIS_PORT: String(redis.port), QUEUE: queueName, PREFIX: prefix, LOCK_MS: '2000', STALLED_MS: '500' };
    workers.push(await startWorker('A', env, FIXTURE));
  });
  afterAll(async () => {
    await Promise.all(served.slice().map(stop));
    await Promise.all(workers.splice(0).map((w) => w.kill()));
    client.disconnect();
    blocking.disconnect();
    await redis?.stop();
  });

  it('AgentRuns is what tasks.runs takes, with no cast', () => {
    const runs = newRuns();
    const ok: QueuedToolCalls = runs;
    expect(typeof ok.callTool).toBe('function');
    return runs.close();
  });

  it('a 2025-11-25 task runs on a worker: tasks/get polls it and tasks/result reads its result', async () => {
    const at = await serve();
    const ada = await legacyClient(at);
    const taskId = await startLegacy(ada, 'gate-a1');
    await entered('gate-a1');
    const polled = await ada.request({ method: 'tasks/get', params: { taskId } }, ANY);
    expect(polled).toMatchObject({ taskId, status: 'working', pollInterval: 1_000 });
    const result = ada.request({ method: 'tasks/result', params: { taskId } }, ANY);
    await open('gate-a1');
    expect(textOf(await result)).toBe('crunched gate-a1 on A');
    const done = await ada.request({ method: 'tasks/get', params: { taskId } }, ANY);
    expect(done).toMatchObject({ taskId, status: 'completed', statusMessage: 'crunching gate-a1' });
    // The worker's setup got the call's meta: the caller's key as a digest, never the caller itself.
    const [meta] = await client.lrange(`${prefix}:setup:${taskId}`, 0, -1);
    expect(JSON.parse(meta)).toEqual({ mcpTaskOwner: expect.stringMatching(/^[\w-]{43}$/) });
    expect(meta).not.toContain('ada');
    await ada.close();
    await stop(at);
  });

  it('a 2026-07-28 task runs on a worker, and tasks/get carries its result once it completed', async () => {
    const at = await serve();
    const created = await modern(at, 'tools/call', { name: 'crunch', arguments: { batch: 'gate-m1' } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1_000 });
    const taskId = created.result!.taskId as string;
    await entered('gate-m1');
    expect((await modern(at, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    await open('gate-m1');
    expect((await at.runs.waitToolCall(taskId))?.status).toBe('completed');
    const polled = (await modern(at, 'tasks/get', { taskId })).result!;
    expect(polled).toMatchObject({ taskId, status: 'completed' });
    expect(textOf(polled.result as Record<string, unknown>)).toBe('crunched gate-m1 on A');
    await stop(at);
  });

  it('outlives the server that started it: another instance sharing the Redis answers for it, on both eras', async () => {
    const first = await serve();
    const legacyTask = await startLegacy(await legacyClient(first), 'gate-o1');
    await entered('gate-o1');
    const modernTask = (await modern(first, 'tools/call', { name: 'crunch', arguments: { batch: 'gate-o2' } })).result!
      .taskId as string;
    await entered('gate-o2');
    // The instance that started both goes, runs and all (its process could as well: nothing of a task is in it).
    await stop(first);

    const second = await serve();
    const ada = await legacyClient(second);
    expect(await ada.request({ method: 'tasks/get', params: { taskId: legacyTask } }, ANY)).toMatchObject({
      status: 'working',
      statusMessage: 'crunching gate-o1',
    });
    const result = ada.request({ method: 'tasks/result', params: { taskId: legacyTask } }, ANY);
    await Promise.all([open('gate-o1'), open('gate-o2')]);
    expect(textOf(await result)).toBe('crunched gate-o1 on A');
    expect((await second.runs.waitToolCall(modernTask))?.status).toBe('completed');
    const polled = (await modern(second, 'tasks/get', { taskId: modernTask })).result!;
    expect(textOf(polled.result as Record<string, unknown>)).toBe('crunched gate-o2 on A');
    await ada.close();
    await stop(second);
  });

  it('another caller can neither read, wait for nor cancel the task', async () => {
    const at = await serve();
    const ada = await legacyClient(at, 'ada');
    const eve = await legacyClient(at, 'eve');
    const taskId = await startLegacy(ada, 'gate-d1');
    await entered('gate-d1');
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
      await expect(eve.request({ method, params: { taskId } }, ANY)).rejects.toThrow(/Task not found/);
    }
    expect((await modern(at, 'tasks/get', { taskId }, 'eve')).error?.message).toMatch(/Task not found/);
    expect((await modern(at, 'tasks/cancel', { taskId }, 'eve')).error?.message).toMatch(/Task not found/);
    expect(await ada.request({ method: 'tasks/get', params: { taskId } }, ANY)).toMatchObject({ status: 'working' });
    await open('gate-d1');
    expect(textOf(await ada.request({ method: 'tasks/result', params: { taskId } }, ANY))).toBe(
      'crunched gate-d1 on A',
    );
    expect(await client.lrange(`${prefix}:aborted`, 0, -1)).toEqual([]);
    await Promise.all([ada.close(), eve.close()]);
    await stop(at);
  });

  it("tasks/cancel reaches the tool's signal on the worker; the task stays cancelled", async () => {
    const at = await serve();
    const ada = await legacyClient(at);
    const taskId = await startLegacy(ada, 'gate-e1');
    await entered('gate-e1');
    const cancelled = await ada.request({ method: 'tasks/cancel', params: { taskId } }, ANY);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    const [, aborted] = (await blocking.blpop(`${prefix}:aborted`, 0))!;
    expect(aborted).toBe('gate-e1');
    await expect(ada.request({ method: 'tasks/result', params: { taskId } }, ANY)).rejects.toThrow(/Task cancelled/);
    // The tool returned after its abort: the first end stays.
    expect((await modern(at, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    await ada.close();
    await stop(at);
  });

  it('a worker SIGKILLed mid-tool: another finishes the task, the tool ran twice with the same idempotency key', async () => {
    workers.push(await startWorker('B', env, FIXTURE));
    const at = await serve();
    const ada = await legacyClient(at);
    const taskId = await startLegacy(ada, 'hang-c1');
    const hung = await Promise.race(workers.map((w) => w.line('HANG hang-c1').then(() => w)));
    const other = workers.find((w) => w !== hung)!;
    await hung.kill();
    workers.splice(workers.indexOf(hung), 1);

    const result = await ada.request({ method: 'tasks/result', params: { taskId } }, ANY);
    expect(textOf(result)).toBe(`crunched hang-c1 on ${other.name}`);
    expect(await client.lrange(`${prefix}:ran:hang-c1`, 0, -1)).toEqual([
      `${hung.name} ${taskId}`,
      `${other.name} ${taskId}`,
    ]);
    await ada.close();
    await stop(at);
  });
});
