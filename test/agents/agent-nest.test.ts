import 'reflect-metadata';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent, Param, Tool, ToolDefinitionError, runAgentLoop } from '../../src';
import { AgentToolsModule, ToolRegistry } from '../../src/nestjs';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';
import { user } from '../helpers/tools';

/** An injected service: only Nest can make the classes that need it. */
@Injectable()
class PriceList {
  readonly prices = new Map([['lamp', 40]]);
}

@Injectable()
class CatalogTools {
  constructor(private readonly list: PriceList) {}

  @Tool({ description: 'The price of an item' })
  price(@Param('item') item: string): string {
    return `${item}: ${this.list.prices.get(item) ?? 'unknown'}`;
  }
}

@Agent({ name: 'shopper', description: 'Finds prices', instructions: 'Find prices.', tools: [CatalogTools] })
@Injectable()
class ShopperAgent {
  constructor(private readonly list: PriceList) {}

  @Tool({ description: 'How many items the catalogue has' })
  count(): number {
    return this.list.prices.size;
  }
}

@Agent({ name: 'manager', description: 'Manages', instructions: 'Manage.', tools: [ShopperAgent] })
@Injectable()
class ManagerAgent {}

@Agent({ name: 'loner', description: 'L', instructions: 'L.', tools: [CatalogTools] })
@Injectable()
class LonerAgent {}

type Message = { role: string; content?: unknown };

describe('agentcall/nestjs discovers @Agent providers', () => {
  let server: ScriptedServer;
  let app: INestApplication;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await app?.close();
    await server.close();
  });

  async function start(providers: NonNullable<Parameters<typeof Test.createTestingModule>[0]['providers']>) {
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolsModule.forRoot()], providers }).compile();
    app = moduleRef.createNestApplication();
    await app.init();
    return app.get(ToolRegistry);
  }

  it("registers each agent as one tool, its tools bound to Nest's instances (DI included), agents of agents too", async () => {
    const registry = await start([PriceList, CatalogTools, ShopperAgent, ManagerAgent]);
    expect(registry.getTools().map((tool) => tool.schema.function.name)).toEqual(['price', 'shopper', 'manager']);
    expect(registry.getTool('count')).toBeUndefined();
    const manager = registry.getTool('manager')!;

    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'manager', arguments: { task: 'price the lamp' } }] });
    server.enqueue({ toolCalls: [{ id: 'm1', name: 'shopper', arguments: { task: 'lamp' } }] });
    server.enqueue({
      toolCalls: [
        { id: 's1', name: 'price', arguments: { item: 'lamp' } },
        { id: 's2', name: 'count' },
      ],
    });
    server.enqueue({ text: 'lamp is 40 of 1 item' });
    server.enqueue({ text: 'shopper says 40' });
    server.enqueue({ text: 'the lamp costs 40' });
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [user('how much is the lamp?')] },
      tools: [manager],
    });
    expect(result.stopReason).toBe('completed');
    const shopperTools = (server.requests[2].body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(shopperTools).toEqual(['price', 'count']);
    expect((server.requests[3].body.messages as Message[]).filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 's1', content: 'lamp: 40' },
      { role: 'tool', tool_call_id: 's2', content: '1' },
    ]);
  });

  it('refuses at bootstrap an agent whose tool class is not a provider, naming both', async () => {
    const refused = (await start([PriceList, LonerAgent]).catch((error: unknown) => error)) as Error;
    expect(refused).toBeInstanceOf(ToolDefinitionError);
    expect(refused.message).toMatch(/LonerAgent.*CatalogTools is not a provider/);
  });
});
