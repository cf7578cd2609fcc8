import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { Ctx, Param, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import { createMcpHttpHandler } from '../../src/mcp';
import { listenMcp, type ListeningMcp } from '../helpers/mcp-http';

/** Any result object: what a task method answers is checked by each test. */
const ANY = z.record(z.string(), z.unknown());

/** A batch job: each call waits until the test releases it, so no verdict here depends on timing. */
class BatchTools {
  readonly gates: (() => void)[] = [];
  readonly aborted: string[] = [];

  @Tool({ description: 'Crunches a batch for a while', task: true })
  async crunch(@Param('batch') batch: string, @Ctx() ctx?: ToolExecuteContext): Promise<string> {
    ctx!.progress?.({ progress: 1, message: `crunching ${batch}` });
    await new Promise<void>((resolve) => {
      this.gates.push(resolve);
      ctx!.signal.addEventListener('abort', () => {
        this.aborted.push(batch);
        resolve();
      });
    });
    return `crunched ${batch}`;
  }

  @Tool({ description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): string {
    return String(a + b);
  }
}

type Served = ListeningMcp & { tools: BatchTools };

async function serve(options: { maxTasks?: number } = {}): Promise<Served> {
  const tools = new BatchTools();
  const handler = createMcpHttpHandler(toolsFrom(tools), {
    name: 'batch',
    version: '1.0.0',
    caller: (_auth, req) => (typeof req.headers['x-user'] === 'string' ? { user: req.headers['x-user'] } : undefined),
    ...(options.maxTasks !== undefined && { tasks: { maxTasks: options.maxTasks } }),
  });
  return { ...(await listenMcp(handler)), tools };
}

/** A 2025-11-25 client (a session) of `user`. */
async function legacyClient(at: Served, user = 'ada'): Promise<Client> {
  const client = new Client({ name: 'poller', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(at.url, { requestInit: { headers: { 'x-user': user } } }));
  expect(client.getProtocolEra()).toBe('legacy');
  return client;
}

/**
 * A 2025-11-25 client that calls tools as tasks: SDK v1's (v2's client reads a `tools/call` answer as a tool result
 * only, and refuses `{ task }`).
 */
async function taskClient(at: Served, user = 'ada'): Promise<V1Client> {
  const client = new V1Client({ name: 'poller', version: '0.0.1' });
  await client.connect(new V1Transport(at.url, { requestInit: { headers: { 'x-user': user } } }));
  return client;
}

/** One 2026-07-28 request on the wire, its `_meta` envelope declaring the tasks extension unless told not to. */
async function modern(at: Served, method: string, params: Record<string, unknown>, declareTasks = true) {
  const response = await fetch(at.url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      // The 2026 wire names the tool, or the task, in a header as well as in the body.
      'mcp-name': String(params.name ?? params.taskId),
      'x-user': 'ada',
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
          'io.modelcontextprotocol/clientCapabilities': declareTasks
            ? { extensions: { 'io.modelcontextprotocol/tasks': {} } }
            : {},
        },
      },
    }),
  });
  const text = await response.text();
  // The answer comes as JSON, or as one SSE `message` event when the server streamed.
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice(6);
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** Wait until the tool has been entered `count` times (its gate is then set). */
async function entered(tools: BatchTools, count: number): Promise<void> {
  while (tools.gates.length < count) await new Promise((resolve) => setImmediate(resolve));
}

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0].text;

describe('@Tool({ task: true }) is served through tasks', () => {
  let at: Served;
  beforeEach(async () => (at = await serve()));
  afterEach(() => at.stop());

  it('a 2025-11-25 session sees execution.taskSupport and the tasks capability', async () => {
    const client = await legacyClient(at);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'crunch')!.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'add')!.execution).toBeUndefined();
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    await client.close();
  });

  it('a 2025-11-25 call with `task` returns a task at once; tasks/get polls it and tasks/result reads its result', async () => {
    const client = await taskClient(at);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'crunch', arguments: { batch: 'b1' }, task: { ttl: 60_000 } } },
      ANY,
    );
    const task = created.task as { taskId: string; status: string; ttl: number };
    expect(task).toMatchObject({ status: 'working', ttl: 60_000 });
    await entered(at.tools, 1);
    const polled = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, ANY);
    expect(polled).toMatchObject({ taskId: task.taskId, status: 'working', statusMessage: 'crunching b1' });

    const result = client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ANY);
    at.tools.gates[0]();
    expect(textOf(await result)).toBe('crunched b1');
    const done = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, ANY);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.pollInterval).toBeUndefined();
    await client.close();
  });

  it('a call without `task` is answered with its result, as any tool', async () => {
    const client = await legacyClient(at);
    const call = client.callTool({ name: 'crunch', arguments: { batch: 'b2' } });
    await entered(at.tools, 1);
    at.tools.gates[0]();
    expect(textOf(await call)).toBe('crunched b2');
    await client.close();
  });

  it("tasks/cancel aborts the tool's signal; another caller can neither read nor cancel the task", async () => {
    const ada = await taskClient(at, 'ada');
    const eve = await taskClient(at, 'eve');
    const created = await ada.request(
      { method: 'tools/call', params: { name: 'crunch', arguments: { batch: 'b3' }, task: {} } },
      ANY,
    );
    const { taskId } = created.task as { taskId: string };
    await entered(at.tools, 1);
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
      await expect(eve.request({ method, params: { taskId } }, ANY)).rejects.toThrow(/Task not found/);
    }
    expect(at.tools.aborted).toEqual([]);
    const cancelled = await ada.request({ method: 'tasks/cancel', params: { taskId } }, ANY);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    expect(at.tools.aborted).toEqual(['b3']);
    await expect(ada.request({ method: 'tasks/result', params: { taskId } }, ANY)).rejects.toThrow(/Task cancelled/);
    await Promise.all([ada.close(), eve.close()]);
  });

  it("a 2026-07-28 request declaring the tasks extension gets resultType 'task', and tasks/get polls it to its result", async () => {
    const created = await modern(at, 'tools/call', { name: 'crunch', arguments: { batch: 'b4' } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1_000 });
    const taskId = created.result!.taskId as string;
    await entered(at.tools, 1);
    expect((await modern(at, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    at.tools.gates[0]();
    let polled = (await modern(at, 'tasks/get', { taskId })).result!;
    while (polled.status === 'working') polled = (await modern(at, 'tasks/get', { taskId })).result!;
    expect(polled).toMatchObject({ taskId, status: 'completed' });
    expect(textOf(polled.result as Record<string, unknown>)).toBe('crunched b4');
  });

  it('a 2026-07-28 request without the extension gets the result itself', async () => {
    const call = modern(at, 'tools/call', { name: 'crunch', arguments: { batch: 'b5' } }, false);
    await entered(at.tools, 1);
    at.tools.gates[0]();
    const { result } = await call;
    expect(result).toMatchObject({ resultType: 'complete' });
    expect(textOf(result!)).toBe('crunched b5');
  });
});

describe('the task table is capped', () => {
  it('past maxTasks the oldest ended task goes; with every kept task running, a call is refused', async () => {
    const at = await serve({ maxTasks: 2 });
    const start = async (batch: string) =>
      (await modern(at, 'tools/call', { name: 'crunch', arguments: { batch } })).result?.taskId as string;
    const first = await start('c1');
    await start('c2');
    await entered(at.tools, 2);
    const refused = await modern(at, 'tools/call', { name: 'crunch', arguments: { batch: 'c3' } });
    expect(refused.error?.message).toMatch(/Too many tasks/);
    at.tools.gates[0]();
    let polled = (await modern(at, 'tasks/get', { taskId: first })).result!;
    while (polled.status === 'working') polled = (await modern(at, 'tasks/get', { taskId: first })).result!;
    const third = await start('c4');
    expect(third).toEqual(expect.any(String));
    expect((await modern(at, 'tasks/get', { taskId: first })).error?.message).toMatch(/Task not found/);
    await at.stop();
  });
});
