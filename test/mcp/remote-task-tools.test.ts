import { Client, type Transport } from '@modelcontextprotocol/client';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type RunToolResult, type ToolDefinition } from '../../src';
import type { ToolProgress } from '../../src/toolCall/type';
import { mcpTools, type McpTaskIds } from '../../src/mcp';

/**
 * A 2025-11-25 server with a task tool, written with the SDK that serves tasks today (v1's experimental tasks): the
 * work of each task waits until the test releases it, so nothing here depends on timing.
 */
function taskServer() {
  const store = new InMemoryTaskStore();
  const created: string[] = [];
  const release = new Map<string, () => void>();
  const server = new McpServer(
    { name: 'batch', version: '1.0.0' },
    { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: store },
  );
  server.experimental.tasks.registerToolTask(
    'crunch',
    {
      description: 'Crunches numbers for a while',
      inputSchema: { n: z.number() },
      execution: { taskSupport: 'required' },
    },
    {
      createTask: async ({ n }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 10 });
        created.push(task.taskId);
        void (async () => {
          await store.updateTaskStatus(task.taskId, 'working', `crunching ${n}`);
          await new Promise<void>((resolve) => release.set(task.taskId, resolve));
          await store.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: `crunched ${n} into ${n * 2}` }],
          });
        })();
        return { task };
      },
      getTask: async (_args, extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) =>
        (await extra.taskStore.getTaskResult(extra.taskId)) as { content: { type: 'text'; text: string }[] },
    },
  );
  return { server, created, release, store };
}

async function connected() {
  const served = taskServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agent', version: '0.0.1' });
  // The two SDKs' in-memory transports have the same shape; v1's type is its own.
  await Promise.all([served.server.connect(serverSide), client.connect(clientSide as unknown as Transport)]);
  const close = async () => {
    await Promise.all([client.close(), served.server.close()]);
    served.store.cleanup();
  };
  return { ...served, client, close };
}

function call(id: string, args: object) {
  return { id, type: 'function' as const, function: { name: 'crunch', arguments: JSON.stringify(args) } };
}

/** `run`'s result, the server's `count`-th task released as soon as it has started (if the run gets that far). */
async function released(
  run: Promise<RunToolResult>,
  release: Map<string, () => void>,
  count: number,
): Promise<RunToolResult> {
  let settled = false;
  void run.finally(() => (settled = true));
  while (release.size < count && !settled) await new Promise((resolve) => setTimeout(resolve, 5));
  [...release.values()][count - 1]?.();
  return run;
}

describe('mcpTools calls a task tool (execution.taskSupport) as a task and polls it to the end', () => {
  it('a required-task tool answers with its result, its status messages reported as progress', async () => {
    const { client, close, created, release } = await connected();
    const tools: ToolDefinition[] = await mcpTools(client);
    expect(tools.map((tool) => tool.schema.function.name)).toEqual(['crunch']);
    const progress: ToolProgress[] = [];
    const result = await released(
      runTool({ call: call('c1', { n: 21 }), messages: [], tools, onProgress: (p) => progress.push(p) }),
      release,
      1,
    );
    expect(result).toMatchObject({ outcome: 'ok', response: 'crunched 21 into 42' });
    expect(created).toHaveLength(1);
    expect(progress).toContainEqual({ progress: 1, message: 'crunching 21' });
    await close();
  });

  it('an aborted call cancels its task on the server', async () => {
    const { client, close, created, store } = await connected();
    const tools = await mcpTools(client);
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    const run = runTool({
      call: call('c3', { n: 7 }),
      messages: [],
      tools,
      signal: controller.signal,
      onProgress: (p) => progress.push(p),
    });
    let settled = false;
    void run.finally(() => (settled = true));
    // Aborted while it polls: its status message read, so the client knows the task.
    while (progress.length === 0 && !settled) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('the user stopped the run'));
    expect((await run).outcome).toBe('aborted');
    const status = async () => (await store.getTask(created[0]))?.status;
    while ((await status()) !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 5));
    await close();
  });

  it('a call whose task id was kept polls that task instead of starting the work again', async () => {
    const { client, close, created, release } = await connected();
    const kept = new Map<string, string>();
    const taskIds: McpTaskIds = {
      get: async (key) => kept.get(key),
      set: async (key, taskId) => void kept.set(key, taskId),
    };
    const tools = await mcpTools(client, { taskIds });
    // The first attempt starts the task and dies while it runs (its run aborted, as a killed worker stops polling).
    const dying = new AbortController();
    const first = runTool({
      call: call('c2', { n: 5 }),
      messages: [],
      tools,
      idempotencyKey: 'run-1:c2',
      signal: dying.signal,
    });
    let firstSettled = false;
    void first.finally(() => (firstSettled = true));
    while (!kept.has('run-1:c2') && !firstSettled) await new Promise((resolve) => setTimeout(resolve, 5));
    dying.abort();
    expect((await first).outcome).toBe('aborted');
    expect(created).toHaveLength(1);
    // The attempt that resumes the run asks for the same call: it polls the kept task to its end.
    const second = await released(
      runTool({ call: call('c2', { n: 5 }), messages: [], tools, idempotencyKey: 'run-1:c2' }),
      release,
      1,
    );
    expect(second).toMatchObject({ outcome: 'ok', response: 'crunched 5 into 10' });
    expect(created).toEqual([kept.get('run-1:c2')]);
    await close();
  });
});
