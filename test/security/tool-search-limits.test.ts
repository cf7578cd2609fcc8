import MiniSearch from 'minisearch';
import { runAgentLoop } from '../../src/run-agent-loop';
import { MAX_SEARCHES_PER_TURN } from '../../src/agentCall/tool-search/search-tools-tool';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import type { ToolDefinition } from '../../src/toolCall/type';
import { fakeTool, user } from '../helpers/tools';
import { madeUpWords as words } from '../helpers/made-up-words';

/** The deferred set `mcpTools` allows by default: 1,000 tools, each described in 2,000 characters. */
const TOOLS = 1_000;
const DESCRIPTION_CHARS = 2_000;

function deferredTool(name: string, description: string, extra: Partial<ToolDefinition> = {}) {
  const tool = fakeTool(name, () => ({ response: `${name} ran` }), { deferred: true, ...extra });
  tool.schema = { ...tool.schema, function: { ...tool.schema.function, description } };
  return tool;
}

const bigSet = (): ToolDefinition[] =>
  Array.from({ length: TOOLS }, (_, i) => deferredTool(`tool_${i}`, words(i + 1, DESCRIPTION_CHARS)));

describe('search_tools under a hostile model and hostile servers', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('searches each query of a turn once, at most MAX_SEARCHES_PER_TURN of them, a word at a time', async () => {
    const search = jest.spyOn(MiniSearch.prototype, 'search');
    const addAll = jest.spyOn(MiniSearch.prototype, 'addAll');
    try {
      const queries = Array.from({ length: 64 }, (_, i) => words(10_000 + i, 500));
      server.enqueue(
        { toolCalls: queries.map((query, i) => ({ id: `s${i}`, name: 'search_tools', arguments: { query } })) },
        { text: 'done' },
      );
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'm', messages: [user('find tools')] },
        tools: bigSet(),
      });

      expect(result.stopReason).toBe('completed');
      // Each lookup is one word of one query (a query holds at most 16), so none holds the event loop for long; the
      // index is built 25 tools at a time, with a yield between chunks.
      expect(search.mock.calls.length).toBeLessThanOrEqual(MAX_SEARCHES_PER_TURN * 16);
      for (const [query] of search.mock.calls) expect(String(query)).toMatch(/^\w+$/);
      for (const [docs] of addAll.mock.calls) expect(docs.length).toBeLessThanOrEqual(25);
      // Every call has its one tool message; those past the cap say why they were not searched.
      const answers = server.requests[1].body.messages.filter((m) => m.role === 'tool');
      expect(answers).toHaveLength(64);
      const notSearched = answers.filter((m) => String(m.content).startsWith('Not searched'));
      expect(notSearched).toHaveLength(64 - MAX_SEARCHES_PER_TURN);
      expect(notSearched[0].content).toContain(`at most ${MAX_SEARCHES_PER_TURN} searches`);
    } finally {
      search.mockRestore();
      addAll.mockRestore();
    }
  });

  it('costs a turn the same work for 80 search calls as for 8', async () => {
    const search = jest.spyOn(MiniSearch.prototype, 'search');
    try {
      const lookups = async (calls: number) => {
        search.mockClear();
        server.enqueue(
          {
            toolCalls: Array.from({ length: calls }, (_, i) => ({
              id: `s${i}`,
              name: 'search_tools',
              arguments: { query: `alpha${i} beta${i} gamma${i}` },
            })),
          },
          { text: 'done' },
        );
        await runAgentLoop({
          client: server.client(),
          body: { model: 'm', messages: [user('find tools')] },
          tools: [deferredTool('alpha0', 'beta0 gamma0')],
          maxToolCallsPerTurn: 100,
        });
        return search.mock.calls.length;
      };
      const many = await lookups(80);
      const few = await lookups(8);
      expect(many).toBe(few);
    } finally {
      search.mockRestore();
    }
  });

  it('ranks a local tool first for its own words, whatever remote descriptions repeat', async () => {
    const stuffed = 'weather forecast city '.repeat(80);
    const remote = Array.from({ length: 30 }, (_, i) =>
      deferredTool(`weather_forecast_${i}`, stuffed, { remote: true }),
    );
    const local = deferredTool('get_weather', 'Current weather and forecast for a city');
    server.enqueue(
      { toolCalls: [{ id: 's1', name: 'search_tools', arguments: { query: 'weather forecast' } }] },
      { text: 'done' },
    );
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('weather?')] },
      tools: [...remote, local],
    });

    expect(result.state.foundTools?.[0]).toBe('get_weather');
    const answer = server.requests[1].body.messages.find((m) => m.role === 'tool');
    expect(String(answer?.content).split('\n')[1]).toMatch(/^- get_weather:/);
  });
});
