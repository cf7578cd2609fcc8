import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Param, runAgentLoop, runTool, Tool, toolsFrom, type ToolExecuteContext } from '../../src';
import type { ToolProgress } from '../../src/toolCall/type';
import { createMcpHttpHandler, mcpTools, type McpHttpHandler, type McpTaskIds } from '../../src/mcp';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { stretchedTimeout } from '../helpers/stretched-timeout';

/** A batch job served as a task: each run waits until the test releases it (or fails it), so nothing here is timed. */
class BatchTools {
  readonly gates: ((failure?: Error) => void)[] = [];
  readonly aborted: string[] = [];
  runs = 0;

  @Tool({ description: 'Crunches a batch for a while', task: true })
  async crunch(@Param('batch') batch: string, @Ctx() ctx?: ToolExecuteContext): Promise<string> {
    this.runs++;
    ctx!.progress?.({ progress: 1, message: `crunching ${batch}` });
    const failure = await new Promise<Error | undefined>((resolve) => {
      this.gates.push(resolve);
      ctx!.signal.addEventListener('abort', () => {
        this.aborted.push(batch);
        resolve(undefined);
      });
    });
    if (failure) throw failure;
    return `crunched ${batch}`;
  }

  @Tool({ description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): string {
    return String(a + b);
  }
}

type Served = { url: URL; handler: McpHttpHandler; http: HttpServer; tools: BatchTools };

async function serve(): Promise<Served> {
  const tools = new BatchTools();
  const handler = createMcpHttpHandler(toolsFrom(tools), { name: 'batch', version: '1.0.0', allowAnonymous: true });
  const http = createServer((req, res) => void handler(req, res));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), handler, http, tools };
}

async function stop({ handler, http }: Served): Promise<void> {
  await handler.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
}

/** One JSON-RPC request the client sent: its method and `_meta`. */
type Sent = { method: string; params: Record<string, unknown> & { _meta?: Record<string, unknown> } };

/** A 2026-07-28 client (as a process resuming a run would make), every request it sends recorded in `sent`. */
async function modernClient(at: Served, sent: Sent[]): Promise<Client> {
  const client = new Client(
    { name: 'agent', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  const recording = (url: string | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string') {
      const message = JSON.parse(init.body) as Partial<Sent>;
      if (message.method !== undefined) sent.push({ method: message.method, params: message.params ?? {} });
    }
    return fetch(url, init);
  };
  await client.connect(new StreamableHTTPClientTransport(at.url, { fetch: recording }));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

/** Wait until `check` holds: an event of the server or the client, looked for every few milliseconds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

function call(id: string, name: string, args: object) {
  return { id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
}

const methods = (sent: Sent[]) => sent.map((request) => request.method);

/** Polls run at the interval the server suggests (1 s): a test waits for a few of them, never for a guessed time. */
const TIMEOUT = stretchedTimeout(20_000);

describe('mcpTools follows a 2026-07-28 task (resultType: task) to its end', () => {
  let at: Served;
  const clients: Client[] = [];
  beforeEach(async () => (at = await serve()));
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await stop(at);
  });

  async function toolsOf(sent: Sent[], taskIds?: McpTaskIds) {
    const client = await modernClient(at, sent);
    clients.push(client);
    return { client, tools: await mcpTools(client, taskIds && { taskIds }) };
  }

  it(
    'declares the tasks extension with the client’s own capabilities, polls the task and returns its result',
    async () => {
      const sent: Sent[] = [];
      const { tools } = await toolsOf(sent);
      const progress: ToolProgress[] = [];
      const run = runTool({
        call: call('c1', 'crunch', { batch: 'a' }),
        messages: [],
        tools,
        onProgress: (p) => progress.push(p),
      });
      await until(() => at.tools.gates.length === 1);
      at.tools.gates[0]();
      expect(await run).toMatchObject({ outcome: 'ok', response: 'crunched a' });
      expect(progress).toContainEqual({ progress: 1, message: 'crunching a' });
      expect(at.tools.runs).toBe(1);
      // One call started the task, and the result came from polling it.
      const calls = sent.filter((request) => request.method === 'tools/call');
      expect(calls).toHaveLength(1);
      expect(methods(sent)).toContain('tasks/get');
      expect(calls[0].params._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({
        elicitation: { form: {} },
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      });
    },
    TIMEOUT,
  );

  it('uses a plain answer as it is when the tool is not run as a task', async () => {
    const sent: Sent[] = [];
    const { tools } = await toolsOf(sent);
    const result = await runTool({ call: call('c2', 'add', { a: 2, b: 3 }), messages: [], tools });
    expect(result).toMatchObject({ outcome: 'ok', response: '5' });
    expect(methods(sent).filter((method) => method.startsWith('tasks/'))).toEqual([]);
  });

  it(
    'hands the task’s result to the model in runAgentLoop',
    async () => {
      const model: ScriptedServer = await startScriptedServer({
        turns: [{ toolCalls: [{ id: 'call_1', name: 'crunch', arguments: { batch: 'b' } }] }, { text: 'Done.' }],
      });
      try {
        const sent: Sent[] = [];
        const { tools } = await toolsOf(sent);
        const loop = runAgentLoop({
          client: model.client(),
          body: { model: 'scripted', messages: [{ role: 'user', content: 'Crunch batch b.' }] },
          tools,
        });
        await until(() => at.tools.gates.length === 1);
        at.tools.gates[0]();
        const result = await loop;
        expect(result.stopReason).toBe('completed');
        const toolMessages = model.requests[1].body.messages.filter((message) => message.role === 'tool');
        expect(toolMessages).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: 'crunched b' }]);
        expect(methods(sent)).toContain('tasks/get');
      } finally {
        await model.close();
      }
    },
    TIMEOUT,
  );

  it(
    'a resumed call whose task id was kept polls that task and never starts the work again',
    async () => {
      const kept = new Map<string, string>();
      const taskIds: McpTaskIds = {
        get: async (key) => kept.get(key),
        set: async (key, taskId) => void kept.set(key, taskId),
      };
      // The first worker starts the task and is gone (its connection closed, nothing aborted, nothing cancelled).
      const first = await toolsOf([], taskIds);
      const dying = runTool({
        call: call('c3', 'crunch', { batch: 'c' }),
        messages: [],
        tools: first.tools,
        idempotencyKey: 'run-1:c3',
      });
      await until(() => kept.has('run-1:c3'));
      await first.client.close();
      expect((await dying).outcome).toBe('error');
      // The worker that resumes the run asks for the same call with a fresh client: it polls the kept task.
      const sent: Sent[] = [];
      const second = await toolsOf(sent, taskIds);
      const resumed = runTool({
        call: call('c3', 'crunch', { batch: 'c' }),
        messages: [],
        tools: second.tools,
        idempotencyKey: 'run-1:c3',
      });
      await until(() => methods(sent).includes('tasks/get'));
      expect(methods(sent)).not.toContain('tools/call');
      expect(at.tools.runs).toBe(1);
      at.tools.gates[0]();
      expect(await resumed).toMatchObject({ outcome: 'ok', response: 'crunched c' });
      expect(at.tools.runs).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'a task that fails becomes a tool error the model reads',
    async () => {
      const sent: Sent[] = [];
      const { tools } = await toolsOf(sent);
      const run = runTool({ call: call('c4', 'crunch', { batch: 'd' }), messages: [], tools });
      await until(() => at.tools.gates.length === 1);
      at.tools.gates[0](new Error('batch d is corrupt'));
      const result = await run;
      expect(result.outcome).toBe('error');
      expect(result.response).toBe('Tool error: batch d is corrupt');
      expect(methods(sent)).toContain('tasks/get');
    },
    TIMEOUT,
  );

  it('refuses, naming the SDK versions that work, a client without the SDK Client’s internals', async () => {
    const client = await modernClient(at, []);
    clients.push(client);
    // A wrapper with the public methods only: it cannot carry a task result past the SDK's decoding.
    const wrapper = {
      listTools: client.listTools.bind(client),
      callTool: client.callTool.bind(client),
      getProtocolEra: client.getProtocolEra.bind(client),
      request: client.request.bind(client),
      getServerCapabilities: client.getServerCapabilities.bind(client),
    };
    await expect(mcpTools(wrapper)).rejects.toThrow(
      /follows 2026-07-28 tasks through the internals of the SDK's own Client \(@modelcontextprotocol\/client 2\.4\.x\)/,
    );
  });

  it(
    'an aborted call cancels its remote task',
    async () => {
      const sent: Sent[] = [];
      const { tools } = await toolsOf(sent);
      const controller = new AbortController();
      const run = runTool({
        call: call('c5', 'crunch', { batch: 'e' }),
        messages: [],
        tools,
        signal: controller.signal,
      });
      // Aborted while it polls: once the task exists, its id known to the client.
      await until(() => at.tools.gates.length === 1 && methods(sent).includes('tasks/get'));
      controller.abort(new Error('the user stopped the run'));
      expect((await run).outcome).toBe('aborted');
      await until(() => at.tools.aborted.includes('e'));
      expect(methods(sent)).toContain('tasks/cancel');
    },
    TIMEOUT,
  );
});
