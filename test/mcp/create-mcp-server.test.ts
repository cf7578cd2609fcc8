import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { IsInt, Max, Min } from 'class-validator';
import { Ctx, Param, Tool, runTool, toolsFrom, type ToolDefinition, type ToolExecuteContext } from '../../src';
import { createMcpServer } from '../../src/mcp';

class WeatherTools {
  readonly seen: ToolExecuteContext[] = [];

  @Tool({ description: 'Forecast for a city' })
  forecast(
    @Param('city', { description: 'City name' }) city: string,
    @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number,
  ): string {
    return `${days ?? 1} days in ${city}`;
  }

  @Tool({ description: 'Fails with a secret in its message' })
  leaky(): string {
    throw new Error(
      'upstream refused api_key=sk-abcdefghijklmnop at https://user:pw@internal.example/v1\n    at secret.ts:1',
    );
  }

  @Tool({ description: 'Waits for its signal', timeoutMs: 60_000 })
  async wait(@Param('id') id: string, @Ctx() ctx?: ToolExecuteContext): Promise<string> {
    this.seen.push(ctx!);
    await new Promise((resolve) => ctx!.signal.addEventListener('abort', resolve, { once: true }));
    return `stopped ${id}`;
  }
}

function slowTool(): ToolDefinition {
  return {
    schema: { type: 'function', function: { name: 'slow', parameters: { type: 'object', properties: {} } } },
    timeoutMs: 50,
    execute: () => new Promise(() => undefined),
  };
}

function bigTool(): ToolDefinition {
  return {
    schema: { type: 'function', function: { name: 'big', parameters: { type: 'object', properties: {} } } },
    execute: async () => ({ response: `${'a'.repeat(5_000)}END` }),
  };
}

async function connect(tools: ToolDefinition[], options: { maxResponseChars?: number } = {}) {
  const server = createMcpServer(tools, { name: 'test-server', version: '1.2.3', ...options });
  const client = new Client({ name: 'test-client', version: '0.0.1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, server, close: () => Promise.all([client.close(), server.close()]) };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');

describe('createMcpServer, driven by the SDK Client in memory', () => {
  const instance = new WeatherTools();
  const tools = [...toolsFrom(instance), slowTool(), bigTool()];
  let session: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    session = await connect(tools, { maxResponseChars: 1_000 });
  });
  afterAll(() => session.close());

  it('names itself and lists every tool with its description and JSON Schema', async () => {
    expect(session.client.getServerVersion()).toMatchObject({ name: 'test-server', version: '1.2.3' });
    const { tools: listed } = await session.client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(['forecast', 'leaky', 'wait', 'slow', 'big']);
    expect(listed[0]).toMatchObject({
      description: 'Forecast for a city',
      inputSchema: tools[0].schema.function.parameters,
    });
  });

  it('runs a call and returns its response as text', async () => {
    const result = await session.client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 2 } });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('2 days in Oslo');
  });

  it('answers invalid arguments with isError and the text runTool gives the model', async () => {
    const result = await session.client.callTool({ name: 'forecast', arguments: { city: 3, days: 9 } });
    const local = await runTool({
      call: { id: 'c', type: 'function', function: { name: 'forecast', arguments: '{"city":3,"days":9}' } },
      messages: [],
      tools,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(local.response);
    expect(textOf(result)).toContain('days: days must not be greater than 7');
  });

  it('masks a throwing tool: isError, first line only, no secrets', async () => {
    const result = await session.client.callTool({ name: 'leaky', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Tool error: upstream refused/);
    expect(textOf(result)).not.toMatch(/sk-abcdefghijklmnop|user:pw|secret\.ts/);
  });

  it('answers a timeout with isError', async () => {
    const result = await session.client.callTool({ name: 'slow', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ text: 'Tool error: slow timed out after 50 ms' }] });
  });

  it('caps a large response, keeping its head and tail', async () => {
    const text = textOf(await session.client.callTool({ name: 'big', arguments: {} }));
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toMatch(/^a+\n\.\.\. \[\d+ characters truncated\] \.\.\.\na+END$/);
  });

  it('refuses an unknown tool with a protocol error', async () => {
    await expect(session.client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(ProtocolError);
    await expect(session.client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Call tool not found: nope/);
  });

  it("aborts the tool's signal when the client cancels the request", async () => {
    const controller = new AbortController();
    const pending = session.client.callTool(
      { name: 'wait', arguments: { id: 'w1' } },
      {
        signal: controller.signal,
      },
    );
    while (instance.seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const { signal } = instance.seen[0];
    expect(signal.aborted).toBe(false);
    controller.abort(new Error('user pressed stop'));
    await expect(pending).rejects.toThrow();
    while (!signal.aborted) await new Promise((resolve) => setImmediate(resolve));
    expect(signal.aborted).toBe(true);
  });

  it('aborts running tools when the connection closes', async () => {
    const own = new WeatherTools();
    const other = await connect(toolsFrom(own));
    const pending = other.client.callTool({ name: 'wait', arguments: { id: 'w2' } }).catch((error: unknown) => error);
    while (own.seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await other.close();
    await pending;
    expect(own.seen[0].signal.aborted).toBe(true);
  });
});
