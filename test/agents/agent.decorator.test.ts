import 'reflect-metadata';
import { Agent, Param, runAgentLoop, Tool, ToolDefinitionError, toolsFrom } from '../../src';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

class SearchTools {
  readonly made = 'without arguments';

  @Tool({ description: 'Search the web' })
  search(@Param('query') query: string) {
    return `results for ${query} (${this.made})`;
  }
}

@Agent({ name: 'research', description: 'Researches a topic', instructions: 'Cite sources.', tools: [SearchTools] })
class ResearchAgent {
  @Tool({ description: 'Note a finding' })
  note(@Param('text') text: string) {
    return `noted ${text}`;
  }
}

@Agent({ name: 'lead', description: 'Leads', instructions: 'Lead.', tools: [ResearchAgent] })
class LeadAgent {}

describe('@Agent', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it("toolsFrom gives the agent's one tool; its tools are its tool classes' (made with no arguments) and its own methods", async () => {
    const tools = toolsFrom(new ResearchAgent());
    expect(tools.map((t) => t.schema.function.name)).toEqual(['research']);
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'research', arguments: { task: 'cats' } }] });
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'search', arguments: { query: 'cats' } }] });
    server.enqueue({ text: 'cats are fine' });
    server.enqueue({ text: 'done' });
    await runAgentLoop({ client: server.client(), body: { model: 'm', messages: [user('go')] }, tools });
    const child = server.requests[1].body as { messages: unknown[]; tools: { function: { name: string } }[] };
    expect(child.messages).toEqual([
      { role: 'system', content: 'Cite sources.' },
      { role: 'user', content: 'cats' },
    ]);
    expect(child.tools.map((t) => t.function.name)).toEqual(['search', 'note']);
    const toolMessage = (server.requests[2].body.messages as { role: string; content?: string }[]).at(-1);
    expect(toolMessage?.content).toBe('results for cats (without arguments)');
  });

  it('builds agents of agents, and refuses agent classes whose tools reach themselves, naming the cycle', () => {
    expect(toolsFrom(new LeadAgent()).map((t) => t.schema.function.name)).toEqual(['lead']);
    @Agent({ name: 'planner', description: 'P', instructions: 'P.', tools: [] })
    class Planner {}
    @Agent({ name: 'critic', description: 'C', instructions: 'C.', tools: [Planner] })
    class Critic {}
    // Closing the loop after both exist, as two modules importing each other would.
    Agent({ name: 'planner', description: 'P', instructions: 'P.', tools: [Critic] })(Planner);
    expect(() => toolsFrom(new Planner())).toThrow(ToolDefinitionError);
    expect(() => toolsFrom(new Planner())).toThrow('planner → critic → planner');
  });
});
