import 'reflect-metadata';
import { askWithDeferredTools } from '../../samples/tool-search/deferred-tools-agent';
import { startScriptedServer, type RecordedRequest } from '../../src/testing';

const EVERYTHING = {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

const names = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : ''));

describe('samples/tool-search (the reference MCP server’s tools, deferred)', () => {
  it('sends none of the remote tools until the model finds one, then runs it', async () => {
    const scripted = await startScriptedServer({
      turns: [
        { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'sum of two numbers' } }] },
        { toolCalls: [{ id: 'g1', name: 'everything_get-sum', arguments: { a: 2, b: 3 } }] },
        { toolCalls: [{ id: 'c1', name: 'calculate', arguments: { a: 5, op: 'multiply', b: 7 } }] },
        { text: '35' },
      ],
    });
    try {
      const result = await askWithDeferredTools({
        server: EVERYTHING,
        client: scripted.client(),
        model: 'scripted',
        prompt: 'What is (2 + 3) × 7?',
      });
      expect(result.stopReason).toBe('completed');
      const local = ['calculate', 'sum', 'search_tools'];
      expect(scripted.requests.map(names)).toEqual([
        local,
        [...local, 'everything_get-sum'],
        [...local, 'everything_get-sum'],
        [...local, 'everything_get-sum'],
      ]);
      const answers = new Map(
        result.completeMessages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, String(m.content)]] : [])),
      );
      expect(answers.get('s1')).toBe(
        'Found 1 tool; you can call it from now on:\n- everything_get-sum: Returns the sum of two numbers',
      );
      expect(answers.get('g1')).toContain('5');
      expect(answers.get('c1')).toBe('35');
      expect(result.state.foundTools).toEqual(['everything_get-sum']);
    } finally {
      await scripted.close();
    }
  }, 60_000);

  it('runs the local deferred tool when the model calls it by name, and sends it from then on', async () => {
    const scripted = await startScriptedServer({
      turns: [{ toolCalls: [{ id: 'r1', name: 'exportYearlyReport', arguments: { year: 2025 } }] }, { text: 'done' }],
    });
    try {
      const result = await askWithDeferredTools({
        server: EVERYTHING,
        client: scripted.client(),
        model: 'scripted',
        prompt: 'Export the 2025 report.',
      });
      expect(result.completeMessages).toContainEqual({ role: 'tool', tool_call_id: 'r1', content: 'sales-2025.csv' });
      expect(names(scripted.requests[1])).toEqual(['calculate', 'sum', 'search_tools', 'exportYearlyReport']);
    } finally {
      await scripted.close();
    }
  }, 60_000);
});
