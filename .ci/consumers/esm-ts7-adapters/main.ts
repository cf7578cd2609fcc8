// An ESM project on TypeScript 7 and openai 7 (`tsc --init` defaults) using the adapters from the packed package:
// decorated tools served over MCP and borrowed back with mcpTools, and a queued run on a real Redis that a worker
// advances with the project's own openai client, all without a cast.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import OpenAI from 'openai';
import { IsInt, Min } from 'class-validator';
import { Param, Tool, runTool, toolsFrom } from 'agentcall';
import { AgentRuns } from 'agentcall/bullmq';
import { createMcpServer, mcpTools } from 'agentcall/mcp';
import { startScriptedServer } from 'agentcall/testing';

class ShopTools {
  readonly orders: string[] = [];

  @Tool({ description: 'Place an order' })
  order(@Param('item') item: string, @Param('quantity', {}, IsInt(), Min(1)) quantity: number): string {
    this.orders.push(`${quantity} x ${item}`);
    return `ordered ${quantity} x ${item}`;
  }
}

// MCP: the tools served by createMcpServer, read back by an SDK client, called through runTool.
const shop = new ShopTools();
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const mcpServer = createMcpServer(toolsFrom(shop), { name: 'shop', version: '1.0.0' });
await mcpServer.connect(serverSide);
const mcp = new Client({ name: 'consumer', version: '1.0.0' });
await mcp.connect(clientSide);
const remote = await mcpTools(mcp, { prefix: 'remote_' });
assert.deepEqual(
  remote.map((tool) => tool.schema.function.name),
  ['remote_order'],
);
const call = (args: object) => ({
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'remote_order', arguments: JSON.stringify(args) },
});
const ok = await runTool({ call: call({ item: 'tea', quantity: 2 }), messages: [], tools: remote });
assert.equal(ok.outcome, 'ok');
assert.equal(ok.response, 'ordered 2 x tea');
const refused = await runTool({ call: call({ item: 'tea', quantity: 0 }), messages: [], tools: remote });
assert.notEqual(refused.outcome, 'ok');
assert.deepEqual(shop.orders, ['2 x tea']);
await mcp.close();

// BullMQ: a run on its own redis-server, advanced by a worker whose setup builds a plain `new OpenAI()`.
const port = await freePort();
const redis = spawn('redis-server', [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
]);
const model = await startScriptedServer();
try {
  await waitForRedis(redis);
  const session = model.session([
    { toolCalls: [{ name: 'order', arguments: { item: 'scones', quantity: 3 } }] },
    { text: 'Three scones ordered.' },
  ]);
  const runs = new AgentRuns({ connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
  try {
    await runs
      .worker({
        setup: async () => ({
          client: new OpenAI({ baseURL: session.baseURL, apiKey: session.apiKey, maxRetries: 0 }),
          tools: toolsFrom(shop),
        }),
      })
      .waitUntilReady();
    const { runId } = await runs.start({ body: { model: 'm', messages: [{ role: 'user', content: 'Three scones' }] } });
    const record = await runs.wait(runId, { timeoutMs: 20_000 });
    assert.equal(record.status, 'completed');
    assert.equal(record.text, 'Three scones ordered.');
    assert.deepEqual(shop.orders, ['2 x tea', '3 x scones']);
  } finally {
    await runs.close();
  }
} finally {
  await model.close();
  redis.kill();
}

console.log('consumer esm-ts7-adapters: MCP tools served and borrowed back, a queued run completed, no cast');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function waitForRedis(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`redis-server exited with ${code}: ${output}`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      child.off('exit', onExit);
      resolve();
    });
  });
}
