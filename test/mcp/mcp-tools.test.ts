import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runTool, type ToolDefinition } from '../../src';
import { TOOL_NAME_PATTERN } from '../../src/internal';
import { mcpTools, type McpV1ToolsClient } from '../../src/mcp';

const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** The protocol's reference server, started as a child process over stdio. */
async function startEverything(env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'agentcall-test', version: '0.0.1' });
  await client.connect(transport);
  return client;
}

/** The client, recording every callTool that reaches it. */
function recording(client: Client) {
  const calls: Parameters<Client['callTool']>[] = [];
  const spy: McpV1ToolsClient = {
    listTools: (...args) => client.listTools(...args),
    callTool: (...args) => {
      calls.push(args);
      return client.callTool(...args);
    },
  };
  return { spy, calls };
}

async function call(tools: ToolDefinition[], name: string, args: unknown, signal?: AbortSignal) {
  return runTool({
    call: { id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
    messages: [],
    tools,
    signal,
  });
}

describe('mcpTools against @modelcontextprotocol/server-everything over stdio', () => {
  const BIG = 'x'.repeat(100_000);
  let client: Client;
  let calls: Parameters<Client['callTool']>[];
  let tools: ToolDefinition[];

  beforeAll(async () => {
    client = await startEverything({ BIG_VALUE: BIG });
    const recorded = recording(client);
    calls = recorded.calls;
    tools = await mcpTools(recorded.spy, { prefix: 'ev_', maxResponseChars: 20_000 });
  });
  afterAll(() => client.close());
  beforeEach(() => (calls.length = 0));

  it('lists the remote tools under valid, prefixed names with their schemas (without $schema)', async () => {
    const remote = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.schema.function.name)).toEqual(
      remote.map((tool) => `ev_${tool.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`),
    );
    for (const tool of tools) expect(tool.schema.function.name).toMatch(TOOL_NAME_PATTERN);
    const sum = tools.find((tool) => tool.schema.function.name === 'ev_get-sum')!;
    expect(sum.schema.function).toMatchObject({
      description: 'Returns the sum of two numbers',
      parameters: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' } } },
    });
    expect(sum.schema.function.parameters).not.toHaveProperty('$schema');
  });

  it('include and exclude pick remote tools by their remote names', async () => {
    const picked = await mcpTools(client, { include: ['echo', 'get-sum', 'get-env'], exclude: ['get-env'] });
    expect(picked.map((tool) => tool.schema.function.name)).toEqual(['echo', 'get-sum']);
  });

  it('runs a call through runTool: the remote text is the response', async () => {
    expect((await call(tools, 'ev_echo', { message: 'hello' })).response).toBe('Echo: hello');
    expect((await call(tools, 'ev_get-sum', { a: 2, b: 3 })).response).toBe('The sum of 2 and 3 is 5.');
    expect(calls.map(([params]) => params)).toEqual([
      { name: 'echo', arguments: { message: 'hello' } },
      { name: 'get-sum', arguments: { a: 2, b: 3 } },
    ]);
  });

  it('checks arguments against the remote schema before anything is sent', async () => {
    const result = await call(tools, 'ev_get-sum', { a: 'two', c: 1 });
    expect(result.response).toBe(
      ['Invalid arguments for tool "ev_get-sum":', 'b: b is required', 'a: a must be number'].join('\n'),
    );
    const uri = await call(tools, 'ev_gzip-file-as-resource', { data: 'not a uri' });
    expect(uri.response).toContain('data: data must match format "uri"');
    const notJson = await call(tools, 'ev_echo', 'just text');
    expect(notJson.response).toMatch(/^Invalid arguments for tool "ev_echo":\n/);
    expect(calls).toHaveLength(0);
  });

  it("answers a remote tool's error as a tool error, masked like a local throw", async () => {
    const result = await call(tools, 'ev_gzip-file-as-resource', { data: 'ftp://example.com/x' });
    expect(result.response).toBe(
      'Tool error: Error processing file ftp://[redacted] Unsupported URL protocol for ftp://[redacted] Only http, https, and data URLs are supported.',
    );
    expect(calls).toHaveLength(1);
  });

  it('describes content a chat model cannot read, and keeps the text around it', async () => {
    const result = await call(tools, 'ev_get-tiny-image', {});
    expect(result.response).toMatch(
      /^Here's the image you requested:\n\[image: image\/png, \d+ bytes\]\nThe image above is the MCP logo\.$/,
    );
  });

  it('caps a large result, keeping its head and tail', async () => {
    const result = await call(tools, 'ev_get-env', {});
    expect(result.response.length).toBeLessThanOrEqual(20_000);
    expect(result.response).toMatch(/^\{\n/);
    expect(result.response).toMatch(/\.\.\. \[\d+ characters truncated\] \.\.\./);
    expect(result.response).toMatch(/\}$/);
  });

  it("hands the run's signal to callTool: aborting answers at once and cancels the remote request", async () => {
    const controller = new AbortController();
    const pending = call(tools, 'ev_trigger-long-running-operation', { duration: 30, steps: 3 }, controller.signal);
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await pending).response).toBe('Tool error: ev_trigger-long-running-operation was aborted');
    expect(calls[0][2]?.signal?.aborted).toBe(true);
  });
});

describe('mcpTools when the server goes away', () => {
  it('answers a broken transport as a tool error; runTool never throws', async () => {
    const client = await startEverything();
    const tools = await mcpTools(client, { include: ['echo'] });
    await client.close();
    const result = await call(tools, 'echo', { message: 'anyone?' });
    expect(result.response).toMatch(/^Tool error: /);
  });
});

describe('mcpTools names', () => {
  it('makes names valid and unique, and keeps calling each remote tool by its own name', async () => {
    const remoteNames = ['search.files', 'search_files', 'a'.repeat(80), 'a'.repeat(80) + 'b', 'über'];
    const seen: string[] = [];
    const fake: McpV1ToolsClient = {
      listTools: async () => ({
        tools: remoteNames.map((name) => ({ name, inputSchema: { type: 'object' as const, properties: {} } })),
      }),
      callTool: async (params) => {
        seen.push(params.name);
        return { content: [{ type: 'text' as const, text: params.name }] };
      },
    };
    const tools = await mcpTools(fake);
    const names = tools.map((tool) => tool.schema.function.name);
    expect(names).toEqual(['search_files', 'search_files_2', 'a'.repeat(64), `${'a'.repeat(62)}_2`, '_ber']);
    for (const tool of tools) await call(tools, tool.schema.function.name, {});
    expect(seen).toEqual(remoteNames);
  });
});
