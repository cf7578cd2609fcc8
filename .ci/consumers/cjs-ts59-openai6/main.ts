// A CommonJS project on TypeScript 5.9 (`module: commonjs`, so node10 resolution of the subpath entry points)
// and openai 6.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import OpenAI, { APIError } from 'openai';
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
import { startScriptedServer } from 'agentcall/testing';

class OrderDto {
  @Param({ description: 'Item to order' })
  item!: string;

  @Param({ description: 'How many' })
  @IsInt()
  @Min(1)
  quantity!: number;
}

class ShopTools {
  readonly orders: OrderDto[] = [];

  @Tool({ description: 'Place an order', strict: true })
  order(@Param() order: OrderDto, @Ctx() ctx: ToolExecuteContext) {
    assert.ok(ctx.signal instanceof AbortSignal);
    this.orders.push(order);
    return toolResult.stop(`Ordered ${order.quantity} x ${order.item}`);
  }
}

/** A helper typed as users type theirs: it takes an `OpenAI`, and the test kit's client is one, with no cast. */
async function ask(client: OpenAI, question: string): Promise<string> {
  const completion = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: question }],
  });
  return completion.choices[0]?.message.content ?? '';
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
    assert.match(String(server.requests[1].body.messages.at(-1)?.content), /quantity/);

    const asked = server.session([{ text: 'from a session' }]);
    assert.equal(await ask(asked.client(), 'hi'), 'from a session');
    assert.ok(asked.client() instanceof OpenAI);

    // The user's own client.
    const session = server.session([{ text: 'hello' }]);
    const own = new OpenAI({ baseURL: session.baseURL, apiKey: session.apiKey, maxRetries: 0 });
    const greeting = await runAgentLoop({ client: own, body: { model: 'm', messages: [] }, tools: [] });
    assert.equal(greeting.assistantMessages[0].content, 'hello');

    // A client agentcall builds itself (from userKey) comes from the same openai: the user's APIError matches.
    // (400: the SDK does not retry it.)
    const failing = server.session([{ status: 400, errorMessage: 'bad request' }]);
    const failed = await runAgentLoop({
      userKey: { baseUrl: failing.baseURL, key: failing.apiKey },
      body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      tools: [],
      maxRunAgentTimes: 1,
    });
    assert.ok(failed.error instanceof APIError, String(failed.error));
  } finally {
    await server.close();
  }

  assert.throws(
    () => toolsFrom({}),
    (e: unknown) => ToolDefinitionError.isInstance(e),
  );
  console.log('consumer cjs-ts59-openai6: compiled and ran (decorators, DTO, loop, testing, errors)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
