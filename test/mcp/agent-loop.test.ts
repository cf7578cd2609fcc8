import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { IsInt, Max, Min } from 'class-validator';
import { Param, Tool, runAgentLoop, toolsFrom, type ToolDefinition } from '../../src';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';
import { createMcpServer, mcpTools, type McpListingReport } from '../../src/mcp';
import { startScriptedServer } from '../../src/testing';

class TravelTools {
  @Tool({ description: 'Forecast for a city' })
  forecast(
    @Param('city') city: string,
    @Param('days', { optional: true }, IsInt(), Min(1), Max(7)) days?: number,
  ): { city: string; days: number } {
    return { city, days: days ?? 1 };
  }

  @Tool({ description: 'A very long guide' })
  guide(@Param('city') city: string): string {
    return `${city}: ${'sights and sounds '.repeat(2_000)}the end`;
  }

  @Tool({ description: 'Books a room, but the hotel is down' })
  book(@Param('city') city: string): string {
    throw new Error(`hotel in ${city} unreachable`);
  }
}

/** The same tools served by an MCP server (in memory), as the loop sees them through mcpTools. */
async function remoteTravelTools() {
  const server = createMcpServer(toolsFrom(new TravelTools()), { name: 'travel', version: '1.0.0' });
  const client = new Client({ name: 'loop', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const tools = await mcpTools(client, { prefix: 'remote_' });
  return { tools, close: () => Promise.all([client.close(), server.close()]) };
}

describe('runAgentLoop with a remote MCP tool and a local decorated tool in one turn', () => {
  it('gives both the same outcomes, the same caps and the same hooks', async () => {
    const remote = await remoteTravelTools();
    const local = toolsFrom(new TravelTools());
    const pairs: [string, Record<string, unknown>][] = [
      ['forecast', { city: 'Oslo', days: 3 }],
      ['forecast', { city: 'Oslo', days: 30 }],
      ['guide', { city: 'Rome' }],
      ['book', { city: 'Lima' }],
    ];
    const toolCalls = pairs.flatMap(([name, args], index) => [
      { id: `call_local_${index}`, name, arguments: args },
      { id: `call_remote_${index}`, name: `remote_${name}`, arguments: args },
    ]);
    const server = await startScriptedServer({ turns: [{ toolCalls }, { text: 'All done.' }] });
    const seen: { call: ChatCompletionMessageToolCall; response: string }[] = [];
    const started: string[] = [];
    try {
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'scripted', messages: [{ role: 'user', content: 'Plan a trip.' }] },
        tools: [...local, ...remote.tools],
        maxToolResponseTokens: 200,
        onToolCall: ({ call }) => void started.push(call.id),
        onAfterToolCall: (event) => void seen.push(event),
      });
      expect(result.error).toBeUndefined();
      expect(result.completeMessages.at(-1)).toMatchObject({ role: 'assistant', content: 'All done.' });

      // The model sees both sets, under their own names.
      const offered = server.requests[0].body.tools!.map((tool) =>
        tool.type === 'function' ? tool.function.name : '',
      );
      expect(offered).toEqual(['forecast', 'guide', 'book', 'remote_forecast', 'remote_guide', 'remote_book']);

      // Exactly one tool message per call, in call order.
      const messages = server.requests[1].body.messages.flatMap((message) =>
        message.role === 'tool' ? [message] : [],
      );
      expect(messages.map((message) => message.tool_call_id)).toEqual(toolCalls.map((call) => call.id));
      const contents = messages.map((message) => String(message.content));
      const [okLocal, okRemote, badLocal, badRemote, bigLocal, bigRemote, errLocal, errRemote] = contents;

      expect(okRemote).toBe(okLocal);
      expect(okLocal).toBe('{"city":"Oslo","days":3}');
      // Refused before running on both sides, with a path-qualified line (Ajv words it its own way remotely).
      expect(badLocal).toBe('Invalid arguments for tool "forecast":\ndays: days must not be greater than 7');
      expect(badRemote).toBe('Invalid arguments for tool "remote_forecast":\ndays: days must be <= 7');
      // Capped by the loop alike: same length, same notice.
      expect(bigRemote).toBe(bigLocal);
      expect(bigLocal).toMatch(/\[\d+ characters truncated\]/);
      expect(bigLocal.length).toBeLessThan(2_000);
      // A throw is a tool error on both sides, with the same text.
      expect(errLocal).toBe('Tool error: hotel in Lima unreachable');
      expect(errRemote).toBe(errLocal);

      // The same hooks, once per call, with the raw (uncapped) responses.
      expect(started).toEqual(toolCalls.map((call) => call.id));
      expect(seen.map((event) => event.call.id)).toEqual(toolCalls.map((call) => call.id));
      const [, , , , rawBigLocal, rawBigRemote] = seen.map((event) => event.response);
      expect(rawBigRemote).toBe(rawBigLocal);
      expect(rawBigLocal.length).toBeGreaterThan(30_000);
    } finally {
      await server.close();
      await remote.close();
    }
  });
});

describe('runAgentLoop with an MCP server whose tools are all deferred', () => {
  /** 200 hand-written tools served in memory: more than one OpenAI request may carry. */
  async function manyRemoteTools(options: Parameters<typeof mcpTools>[1]) {
    const served: ToolDefinition[] = Array.from({ length: 200 }, (_, i) => ({
      schema: {
        type: 'function',
        function: {
          name: i === 137 ? 'translate_text' : `chore_${i}`,
          description: i === 137 ? 'Translate a text into another language' : `Does chore number ${i}`,
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      },
      execute: async ({ params }) => ({ response: `${i}: ${JSON.stringify(params)}` }),
    }));
    const server = createMcpServer(served, { name: 'many', version: '1.0.0' });
    const client = new Client({ name: 'loop', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const reports: McpListingReport[] = [];
    const tools = await mcpTools(client, { ...options, onListingCut: (report) => reports.push(report) });
    return { tools, reports, close: () => Promise.all([client.close(), server.close()]) };
  }

  it('keeps all 200 (maxTools is 1,000 when deferred), sends none until found, then runs the one found', async () => {
    const remote = await manyRemoteTools({ prefix: 'x_', deferred: true });
    const server = await startScriptedServer({
      turns: [
        { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'translate' } }] },
        { toolCalls: [{ id: 't1', name: 'x_translate_text', arguments: { text: 'hej' } }] },
        { text: 'hello' },
      ],
    });
    try {
      expect(remote.tools).toHaveLength(200);
      expect(remote.reports).toEqual([]);
      expect(remote.tools.every((tool) => tool.deferred === true)).toBe(true);
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'scripted', messages: [{ role: 'user', content: 'Translate hej.' }] },
        tools: [...toolsFrom(new TravelTools()), ...remote.tools],
      });
      expect(result.stopReason).toBe('completed');
      const offered = server.requests.map((request) =>
        (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : '')),
      );
      expect(offered).toEqual([
        ['forecast', 'guide', 'book', 'search_tools'],
        ['forecast', 'guide', 'book', 'search_tools', 'x_translate_text'],
        ['forecast', 'guide', 'book', 'search_tools', 'x_translate_text'],
      ]);
      expect(result.completeMessages).toContainEqual({
        role: 'tool',
        tool_call_id: 't1',
        content: '137: {"text":"hej"}',
      });
    } finally {
      await server.close();
      await remote.close();
    }
  });

  it('keeps 128 by default when not deferred, and maxTools still bounds a deferred listing', async () => {
    const plain = await manyRemoteTools({});
    const bounded = await manyRemoteTools({ deferred: true, maxTools: 150 });
    try {
      expect(plain.tools).toHaveLength(128);
      expect(plain.tools.some((tool) => 'deferred' in tool)).toBe(false);
      expect(plain.reports[0]).toMatchObject({ droppedTools: 72 });
      expect(bounded.tools).toHaveLength(150);
      expect(bounded.reports[0]).toMatchObject({ droppedTools: 50 });
    } finally {
      await plain.close();
      await bounded.close();
    }
  });
});
