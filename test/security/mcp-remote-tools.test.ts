import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { DuplicateToolNameError, Param, runAgentLoop, runTool, Tool, toolsFrom, type ToolDefinition } from '../../src';
import { McpSchemaError, mcpTools, type McpListingReport, type McpToolsClient } from '../../src/mcp';
import { startScriptedServer } from '../../src/testing';
import { createRemoteArgsChecker } from '../../src/mcp/remote-args-check';
import { ToolNamer } from '../../src/mcp/tool-names';
import { costRatio, growth } from '../helpers/growth';

const root = join(__dirname, '..', '..');
const HOSTILE = join(__dirname, 'fixtures', 'hostile-mcp-server.ts');
const NODE_ARGS = ['-r', 'ts-node/register/transpile-only', HOSTILE];
const ENV = { PATH: process.env.PATH ?? '', TS_NODE_PROJECT: join(root, 'tsconfig.json') };

/**
 * Linear costs about 10× more on 10× the input; quadratic about 100×. The bound sits well between the two: these
 * checks run late in a long suite, where a collection in the larger run moves a ratio by a third.
 */
const LINEAR = 40;

/** The hostile server over stdio. */
async function overStdio(mode: string): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = new Client({ name: 'victim', version: '0.0.1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: NODE_ARGS,
      env: { ...ENV, HOSTILE_MODE: mode },
      cwd: root,
      stderr: 'ignore',
    }),
  );
  return { client, close: () => client.close() };
}

/** The hostile server over Streamable HTTP on 127.0.0.1, in a child process. */
async function overHttp(mode: string): Promise<{ client: Client; close: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, NODE_ARGS, {
    env: { ...ENV, HOSTILE_MODE: mode, HOSTILE_HTTP: '1' },
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const client = new Client({ name: 'victim', version: '0.0.1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${line.toString().trim()}/mcp`)));
  return {
    client,
    close: async () => {
      await client.close();
      child.kill();
      await once(child, 'exit');
    },
  };
}

function call(tools: ToolDefinition[], name: string, args: unknown) {
  return runTool({
    call: { id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
    messages: [],
    tools,
  });
}

/** A client serving `tools` from memory, for costs the transport would drown. */
function fakeClient(tools: McpTool[]): McpToolsClient {
  return {
    listTools: async () => ({ tools }),
    callTool: async () => ({ content: [{ type: 'text' as const, text: 'called' }] }),
  };
}

const quiet = { onListingCut: () => undefined };

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
])('mcpTools against a hostile server over %s', (_transport, connect) => {
  it('stops reading a listing that never ends, returns what it read and reports the rest', async () => {
    const server = await connect('pages');
    try {
      const reports: McpListingReport[] = [];
      const tools = await mcpTools(server.client, { onListingCut: (report) => reports.push(report) });
      expect(tools).toHaveLength(50);
      expect(reports).toEqual([expect.objectContaining({ pagesRead: 50, unreadPages: true, droppedTools: 0 })]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('still returns a tool whose schema is refused, and answers each call with the named error', async () => {
    const server = await connect('schemas');
    try {
      const reports: McpListingReport[] = [];
      const tools = await mcpTools(server.client, { prefix: 'r_', onListingCut: (report) => reports.push(report) });
      const refused = ['r_ref_root', 'r_huge_enum', 'r_patterned', 'r_lookahead'];
      expect(reports[0].refusedSchemas.map((error) => error.toolName).sort()).toEqual([...refused].sort());
      for (const name of refused) {
        const tool = tools.find((t) => t.schema.function.name === name)!;
        expect(tool.schema.function.parameters).toEqual({ type: 'object', properties: {} });
        const result = await call(tools, name, {});
        expect(result.outcome).toBe('error');
        expect(McpSchemaError.isInstance(result.error)).toBe(true);
        expect(result.response).toMatch(/^Tool error: The input schema of remote tool "r_\w+" cannot be used/);
      }
      // `$ref: '#'` at the root recursed until the stack overflowed, on every call.
      expect((await call(tools, 'r_ref_root', { a: 1 })).response).toContain('refers to itself');
      expect((await call(tools, 'r_huge_enum', { v: 'v1' })).response).toContain(
        '2000 enum values, over the cap of 1000',
      );
      expect((await call(tools, 'r_patterned', {})).response).toContain('300 patterns');
      // The rest still work.
      expect((await call(tools, 'r_redos', { s: 'aaa' })).response).toBe('remote redos ran');
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('mcpTools: a remote listing is bounded', () => {
  it('keeps at most maxTools tools (128) and cuts each description to 2,000 characters', async () => {
    const server = await overStdio('many');
    try {
      const reports: McpListingReport[] = [];
      const tools = await mcpTools(server.client, { onListingCut: (report) => reports.push(report) });
      expect(tools).toHaveLength(128);
      for (const tool of tools) expect(tool.schema.function.description!.length).toBeLessThanOrEqual(2_000);
      expect(reports[0]).toMatchObject({ droppedTools: 372, unreadPages: false });
      expect(reports[0].cutDescriptions).toHaveLength(128);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('warns when nobody listens for the report', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const many = Array.from({ length: 200 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' as const } }));
      expect(await mcpTools(fakeClient(many))).toHaveLength(128);
      expect(emitWarning).toHaveBeenCalledWith(expect.stringContaining('72 tools over maxTools dropped'), {
        code: 'AGENTCALL_MCP_LISTING_CUT',
      });
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('names tools in time linear in their number, even when every name collides', () => {
    const names = (n: string) => {
      const namer = new ToolNamer();
      for (let i = 0; i < Number(n); i++) namer.name('', 'same');
    };
    expect(growth(String, names, 2_000)).toBeLessThan(LINEAR);
  });
});

describe('mcpTools: checking what the model sends is linear in its size', () => {
  async function toolOf(inputSchema: McpTool['inputSchema']) {
    const [tool] = await mcpTools(fakeClient([{ name: 't', inputSchema }]), quiet);
    return (raw: string) => tool.parseParams!(raw);
  }

  it('a backtracking pattern (^(a+)+$) runs on the linear-time engine', async () => {
    const parse = await toolOf({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(parse(JSON.stringify({ s: 'aaa' })).success).toBe(true);
    expect(parse(JSON.stringify({ s: 'aab' })).success).toBe(false);
    // Backtracking doubles per character: 24 characters cost thousands of times what 12 do.
    const ratio = growth((n) => JSON.stringify({ s: `${'a'.repeat(n)}!` }), parse, 12, 2);
    expect(ratio).toBeLessThan(10);
  });

  it('uniqueItems on objects is a hash set, not every pair', async () => {
    const parse = await toolOf({ type: 'object', properties: { items: { type: 'array', uniqueItems: true } } });
    const items = (n: number) => JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ id: i })) });
    expect(growth((n) => items(n), parse, 1_000)).toBeLessThan(LINEAR);
    expect(
      parse(
        JSON.stringify({
          items: [
            { a: 1, b: 2 },
            { b: 2, a: 1 },
          ],
        }),
      ),
    ).toMatchObject({
      success: false,
      errorMessage: expect.stringContaining('must NOT have duplicate items (items ## 0 and 1 are identical)'),
    });
    expect(parse(JSON.stringify({ items: [{ a: 1 }, { a: 2 }, [1], 1, '1'] })).success).toBe(true);
  });

  it('the regex format is decided by the linear-time engine', async () => {
    const parse = await toolOf({ type: 'object', properties: { r: { type: 'string', format: 'regex' } } });
    expect(parse(JSON.stringify({ r: '^a+$' })).success).toBe(true);
    expect(parse(JSON.stringify({ r: '(' })).success).toBe(false);
    // V8 reads many groups followed by a backreference twice over: quadratic.
    expect(growth((n) => JSON.stringify({ r: `${'(a)'.repeat(n / 3)}\\9999` }), parse, 20_000)).toBeLessThan(LINEAR);
  });

  it('compiling a remote schema is bounded: a huge enum is refused in time linear in its size', () => {
    const caps = { maxSchemaChars: Infinity, maxEnumValues: 1_000, maxProperties: 1_000, maxPatterns: 100 };
    const schema = (n: string) => ({
      type: 'object',
      properties: { v: { enum: Array.from({ length: Number(n) }, (_, i) => `v${i}`) } },
    });
    const check = createRemoteArgsChecker(caps);
    expect(check.checkFor('t', schema('2000')).error?.problem).toBe('over_cap');
    // Ajv's compile of an enum grows with the square of its size (200k values took minutes).
    // Only the inspection is timed: building the large schema's strings would time the allocator instead.
    // Sizes past the cache-sized ones, where a fixed cost no longer moves the ratio.
    const small = schema('20000');
    const large = schema('200000');
    const inspect = (remote: object) => () => createRemoteArgsChecker(caps).checkFor('t', remote);
    expect(costRatio(inspect(large), inspect(small))).toBeLessThan(LINEAR);
  });
});

class LocalTools {
  @Tool({ description: 'Local weather' })
  get_weather(@Param('city') city: string): string {
    return `local weather in ${city}`;
  }
}

describe('a remote tool can never take a local tool’s name', () => {
  it('runAgentLoop ends with DuplicateToolNameError before any request', async () => {
    const server = await overStdio('schemas');
    const scripted = await startScriptedServer({
      turns: [{ toolCalls: [{ name: 'get_weather', arguments: {} }] }, { text: 'done' }],
    });
    try {
      const remote = await mcpTools(server.client, quiet);
      const result = await runAgentLoop({
        client: scripted.client(),
        body: { model: 'scripted', messages: [{ role: 'user', content: 'weather?' }] },
        tools: [...remote, ...toolsFrom(new LocalTools())],
      });
      expect(result.stopReason).toBe('error');
      expect(DuplicateToolNameError.isInstance(result.error)).toBe(true);
      expect(result.error?.message).toContain('"get_weather"');
      expect(scripted.requests).toHaveLength(0);
    } finally {
      await scripted.close();
      await server.close();
    }
  }, 60_000);
});
