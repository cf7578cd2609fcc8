// An ESM NestJS 12 app (TypeScript 7, `tsc --init` defaults, openai 6): a tool provider with an injected
// dependency, discovered by AgentToolsModule; the client comes from DI.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import OpenAI from 'openai';
import { Param, Tool, runAgentLoop, type RunAgentResponse } from 'agentcall';
import { AgentToolsModule, ToolRegistry } from 'agentcall/nestjs';
import { startScriptedServer } from 'agentcall/testing';

const OPENAI = Symbol('OPENAI');

@Injectable()
class PriceList {
  price(item: string): number {
    return item === 'tea' ? 3 : 5;
  }
}

@Injectable()
class ShopTools {
  constructor(private readonly prices: PriceList) {}

  @Tool({ description: 'Price of an item in euros' })
  price(@Param('item', { description: 'Item name' }) item: string): string {
    return `${item} costs ${this.prices.price(item)} EUR`;
  }
}

@Injectable()
class AgentService {
  constructor(
    private readonly registry: ToolRegistry,
    @Inject(OPENAI) private readonly client: OpenAI,
  ) {}

  ask(prompt: string): Promise<RunAgentResponse> {
    return runAgentLoop({
      client: this.client,
      body: { model: 'm', messages: [{ role: 'user', content: prompt }] },
      tools: this.registry.getTools(),
    });
  }
}

const server = await startScriptedServer();
const session = server.session([
  { toolCalls: [{ name: 'price', arguments: { item: 'tea' } }] },
  (request) => ({ text: `Tea: ${String(request.body.messages.at(-1)?.content)}` }),
]);

@Module({
  imports: [AgentToolsModule.forRoot()],
  providers: [
    PriceList,
    ShopTools,
    AgentService,
    {
      provide: OPENAI,
      useFactory: () => new OpenAI({ baseURL: session.baseURL, apiKey: session.apiKey, maxRetries: 0 }),
    },
  ],
})
class AppModule {}

const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
try {
  assert.deepEqual(
    app
      .get(ToolRegistry)
      .getTools()
      .map((t) => t.schema.function.name),
    ['price'],
  );
  const result = await app.get(AgentService).ask('How much is tea?');
  assert.equal(result.stopReason, 'completed');
  assert.equal(result.assistantMessages.at(-1)?.content, 'Tea: tea costs 3 EUR');
} finally {
  await app.close();
  await server.close();
}
// One agentcall/nestjs whether imported or required, over the one Nest the app imported (through require(esm)).
const require = createRequire(import.meta.url);
assert.equal(require('agentcall/nestjs').ToolRegistry, ToolRegistry);
assert.equal(require('@nestjs/core').NestFactory, NestFactory);

console.log('consumer nest12-esm: compiled without a cast; DI-built tools and client ran a loop');
