import 'reflect-metadata';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Param, runAgentLoop, runTool, Tool, toolResult, toolsFrom, type ToolExecuteContext } from '../../src';
import type { ToolProgress } from '../../src/toolCall/type';
import { createMcpHttpHandler, mcpTools, type McpTaskIds } from '../../src/mcp';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { stretchedTimeout } from '../helpers/stretched-timeout';
import { listenMcp, type ListeningMcp } from '../helpers/mcp-http';

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

  @Tool({ description: 'Books a seat, asking which one' })
  book(@Param('flight') flight: string) {
    return toolResult.interactive({
      type: 'mcp_input',
      message: `Which seat on ${flight}?`,
      requestedSchema: { type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] },
    });
  }

  @Tool({ description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): string {
    return String(a + b);
  }
}

type Served = ListeningMcp & { tools: BatchTools };

async function serve(): Promise<Served> {
  const tools = new BatchTools();
  const handler = createMcpHttpHandler(toolsFrom(tools), {
    name: 'batch',
    version: '1.0.0',
    allowAnonymous: true,
    stateSecret: 'the-remote-server-secret-0123456789abcdef',
  });
  return { ...(await listenMcp(handler)), tools };
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
    await at.stop();
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

  it('still carries a question (input_required) back as the paused call, through the same request', async () => {
    const sent: Sent[] = [];
    const { tools } = await toolsOf(sent);
    const result = await runTool({ call: call('c6', 'book', { flight: 'LH1' }), messages: [], tools });
    expect(result).toMatchObject({ interactive: { type: 'mcp_input', message: 'Which seat on LH1?' } });
    expect(sent.find((request) => request.method === 'tools/call')?.params._meta).toHaveProperty([
      'io.modelcontextprotocol/clientCapabilities',
      'extensions',
      'io.modelcontextprotocol/tasks',
    ]);
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

/**
 * A 2026-07-28 server written by hand, answering what the spec lets a server send but no well-behaved one would:
 * status text and error messages of 100,000 characters, a poll interval of zero, a task id of 300 characters.
 */
async function serveHostile(): Promise<{ url: URL; polls: () => number; close: () => Promise<void> }> {
  let polls = 0;
  const answer = (method: string, params: Record<string, unknown>): Record<string, unknown> => {
    const task = {
      status: 'working',
      createdAt: '2026-01-01T00:00:00Z',
      lastUpdatedAt: '2026-01-01T00:00:00Z',
      ttlMs: 1,
    };
    switch (method) {
      case 'server/discover':
        return {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1.0.0' } },
        };
      case 'tools/list':
        return {
          ttlMs: 0,
          cacheScope: 'private',
          tools: ['noisy', 'long_id'].map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
        };
      case 'tools/call':
        return params.name === 'noisy'
          ? { resultType: 'task', ...task, taskId: 't1', statusMessage: 'w'.repeat(100_000), pollIntervalMs: 0 }
          : { resultType: 'task', ...task, taskId: 'x'.repeat(300) };
      case 'tasks/get':
        polls++;
        return polls === 1
          ? { ...task, taskId: 't1', statusMessage: 's'.repeat(100_000), pollIntervalMs: -1 }
          : { ...task, taskId: 't1', status: 'failed', error: { code: -32603, message: 'e'.repeat(100_000) } };
      default:
        return {};
    }
  };
  const http = createServer((req, res) => {
    void readJson(req).then((message) => {
      if (message.id === undefined) return void res.writeHead(202).end();
      const result = { resultType: 'complete', ...answer(message.method, message.params ?? {}) };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`),
    polls: () => polls,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function readJson(
  req: IncomingMessage,
): Promise<{ id?: unknown; method: string; params?: Record<string, unknown> }> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return JSON.parse(body || '{}') as { id?: unknown; method: string; params?: Record<string, unknown> };
}

describe('what a 2026-07-28 task server sends is capped', () => {
  let hostile: Awaited<ReturnType<typeof serveHostile>>;
  let client: Client;
  beforeEach(async () => {
    hostile = await serveHostile();
    client = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(hostile.url));
    expect(client.getProtocolEra()).toBe('modern');
  });
  afterEach(async () => {
    await client.close();
    await hostile.close();
  });

  it('status messages reach progress cut to 500 characters, and a failed task’s error to 500', async () => {
    const tools = await mcpTools(client);
    const progress: ToolProgress[] = [];
    const result = await runTool({
      call: call('h1', 'noisy', {}),
      messages: [],
      tools,
      onProgress: (p) => progress.push(p),
    });
    expect(progress.map((p) => p.message)).toEqual(['w'.repeat(500), 's'.repeat(500)]);
    expect(result.outcome).toBe('error');
    expect(result.response).toBe(`Tool error: ${'e'.repeat(500)}`);
    // The error kept for logs (and a queue's journal) is cut as well, not only the text the model reads.
    expect((result.error as Error).message).toBe('e'.repeat(500));
    expect(hostile.polls()).toBe(2);
  });

  it('a task id over 256 characters is refused before it is kept or polled', async () => {
    const kept = new Map<string, string>();
    const taskIds: McpTaskIds = {
      get: async (key) => kept.get(key),
      set: async (key, taskId) => void kept.set(key, taskId),
    };
    const tools = await mcpTools(client, { taskIds });
    const result = await runTool({ call: call('h2', 'long_id', {}), messages: [], tools, idempotencyKey: 'run:h2' });
    expect(result).toMatchObject({
      outcome: 'error',
      response: 'Tool error: the server answered with a task id over 256 characters',
    });
    expect(kept.size).toBe(0);
    expect(hostile.polls()).toBe(0);
  });
});
