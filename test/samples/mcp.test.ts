import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScriptedServer } from '../../src/testing';
import { askWithRemoteTools } from '../../samples/mcp/remote-tools-agent';
import { calculateTool, sumSchema } from '../../samples/mcp/standard-schema';

const root = join(__dirname, '..', '..');

describe('samples/mcp/serve-sample-tools (the sample tools for any MCP host, over stdio)', () => {
  it('lists the sample tools and runs their calls for an MCP client', async () => {
    const client = new Client({ name: 'host', version: '0.0.1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', join(root, 'samples/mcp/serve-sample-tools.ts')],
        env: { PATH: process.env.PATH ?? '', TS_NODE_PROJECT: join(root, 'tsconfig.json') },
        cwd: root,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [
          'add_todo',
          'calculate',
          'complete_todo',
          'delete_todo',
          'share_todo',
          'get_forecast',
          'get_weather',
          'list_todos',
          'sum',
        ].sort(),
      );
      const product = await client.callTool({ name: 'calculate', arguments: { a: 6, op: 'multiply', b: 7 } });
      expect(product.content).toEqual([{ type: 'text', text: '42' }]);
      const wrong = await client.callTool({ name: 'calculate', arguments: { a: 6, op: 'power', b: 7 } });
      expect(wrong.isError).toBe(true);
      expect(JSON.stringify(wrong.content)).toContain('op: op must be one of the following values');
    } finally {
      await client.close();
    }
    // ts-node compiles the sample in the child first: slow on a loaded machine.
  }, 90_000);
});

describe('samples/mcp/remote-tools-agent (a remote server’s tools in the demo loop)', () => {
  it('runs the reference server’s get-sum and the local calculate in one run', async () => {
    const scripted = await startScriptedServer({
      turns: [
        { toolCalls: [{ name: 'remote_get-sum', arguments: { a: 2, b: 3 } }] },
        { toolCalls: [{ name: 'calculate', arguments: { a: 5, op: 'multiply', b: 7 } }] },
        { text: '35' },
      ],
    });
    let printed = '';
    try {
      const result = await askWithRemoteTools({
        server: {
          command: process.execPath,
          args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
        },
        prompt: '(2 + 3) × 7?',
        client: scripted.client(),
        model: 'scripted',
        out: { write: (text: string) => void (printed += text) },
      });
      expect(result.stopReason).toBe('completed');
      const toolMessages = result.completeMessages.filter((message) => message.role === 'tool');
      expect(toolMessages.map((message) => message.content)).toEqual(['The sum of 2 and 3 is 5.', '35']);
      const offered = scripted.requests[0].body.tools!.map((tool) =>
        tool.type === 'function' ? tool.function.name : '',
      );
      expect(offered).toEqual(expect.arrayContaining(['calculate', 'get_weather', 'remote_echo', 'remote_get-sum']));
      expect(offered).not.toContain('remote_get-env');
      expect(printed).toContain('✓ remote_get-sum → The sum of 2 and 3 is 5.');
    } finally {
      await scripted.close();
    }
  });
});

describe('samples/mcp/standard-schema (a DTO as the AI SDK tool input)', () => {
  it('validates through the DTO and runs the calculator', async () => {
    expect(sumSchema['~standard'].validate({ numbers: [] })).toEqual({
      issues: [{ message: 'numbers must contain at least 1 elements', path: ['numbers'] }],
    });
    const schema = calculateTool.inputSchema as { '~standard': { validate: (value: unknown) => unknown } };
    const checked = schema['~standard'].validate({ a: 6, op: 'multiply', b: 7 }) as { value: never };
    expect(await calculateTool.execute!(checked.value, { toolCallId: 'c1', messages: [] })).toBe(42);
  });
});
