// A stranger's first program: installed from the packed tarball, compiled against the published types.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsInt, Min } from 'class-validator';
import {
  Ctx,
  Param,
  Tool,
  ToolDefinitionError,
  runAgentLoop,
  toolResult,
  toolsFrom,
  type ToolExecuteContext,
} from 'agentcall';
import { AgentToolsModule, ToolRegistry } from 'agentcall/nestjs';
import { startScriptedServer } from 'agentcall/testing';

class OrderDto {
  @Param({ description: 'Item to order' })
  item!: string;

  @Param({ description: 'How many' })
  @IsInt()
  @Min(1)
  quantity!: number;
}

@Injectable()
class ShopTools {
  readonly orders: OrderDto[] = [];

  @Tool({ description: 'Place an order', strict: true })
  order(@Param() order: OrderDto, @Ctx() ctx: ToolExecuteContext) {
    assert.ok(ctx.signal instanceof AbortSignal);
    this.orders.push(order);
    return toolResult.stop(`Ordered ${order.quantity} × ${order.item}`);
  }
}

async function main(): Promise<void> {
  const shop = new ShopTools();
  const tools = toolsFrom(shop);
  assert.equal(tools[0].schema.function.strict, true);

  const server = await startScriptedServer({
    turns: [
      { toolCalls: [{ name: 'order', arguments: { item: 'tea', quantity: 0 } }] },
      { toolCalls: [{ name: 'order', arguments: { item: 'tea', quantity: 2 } }] },
    ],
  });
  try {
    const result = await runAgentLoop({
      client: server.client(),
      body: { model: 'm', messages: [{ role: 'user', content: 'Two teas' }] },
      tools,
    });
    assert.equal(result.stopReason, 'tool_stop');
    assert.deepEqual(
      shop.orders.map((o) => [o.item, o.quantity]),
      [['tea', 2]],
    );
    const firstAnswer = server.requests[1].body.messages.at(-1)?.content;
    assert.match(String(firstAnswer), /quantity/);
  } finally {
    await server.close();
  }

  assert.throws(
    () => toolsFrom({}),
    (e: unknown) => ToolDefinitionError.isInstance(e),
  );

  @Module({ imports: [AgentToolsModule.forRoot()], providers: [ShopTools] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  assert.deepEqual(
    app
      .get(ToolRegistry)
      .getTools()
      .map((t) => t.schema.function.name),
    ['order'],
  );
  await app.close();

  console.log('pack-check: the installed package compiled and ran (decorators, loop, testing, nestjs)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
