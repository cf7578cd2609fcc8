// An ESM project on the latest TypeScript 7 and openai 7 with `tsc --init`'s strict defaults: the user builds the
// client and passes it without a cast.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import OpenAI, { APIError } from 'openai';
import { IsInt, Min } from 'class-validator';
import { Param, Tool, createLLMResponse, runAgentLoop, toolsFrom, type RunAgentCallProps } from 'agentcall';
import { startScriptedServer } from 'agentcall/testing';

class OrderSummary {
  @Param({ description: 'Item ordered' }) item!: string;
  @Param({ description: 'How many' }) @IsInt() @Min(1) quantity!: number;
}

class ShopTools {
  readonly orders: string[] = [];

  @Tool({ description: 'Place an order' })
  order(
    @Param('item', { description: 'Item to order' }) item: string,
    @Param('quantity', { description: 'How many' }, IsInt(), Min(1)) quantity: number,
  ): string {
    this.orders.push(`${quantity} x ${item}`);
    return `ordered ${quantity} x ${item}`;
  }
}

/** A helper typed as users type theirs: it takes an `OpenAI`, and the test kit's clients are one, with no cast. */
async function ask(client: OpenAI, question: string): Promise<string> {
  const completion = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: question }],
  });
  return completion.choices[0]?.message.content ?? '';
}

const server = await startScriptedServer();
try {
  // The test kit's clients are the ES module build of the user's own openai: the same class to tsc and `instanceof`.
  server.enqueue({ text: 'from the default script' });
  assert.equal(await ask(server.client(), 'hi'), 'from the default script');
  const asked = server.session([{ text: 'from a session' }]);
  assert.equal(await ask(asked.client({ timeout: 5_000 }), 'hi'), 'from a session');
  assert.ok(server.client() instanceof OpenAI);

  const session = server.session([
    { toolCalls: [{ name: 'order', arguments: { item: 'tea', quantity: 0 } }] },
    { toolCalls: [{ name: 'order', arguments: { item: 'tea', quantity: 2 } }] },
    { text: 'Two teas are on their way.' },
  ]);
  const client = new OpenAI({ baseURL: session.baseURL, apiKey: session.apiKey, maxRetries: 0 });
  const shop = new ShopTools();
  const props: RunAgentCallProps = {
    client,
    body: { model: 'm', messages: [{ role: 'user', content: 'Two teas' }] },
    tools: toolsFrom(shop),
  };
  const result = await runAgentLoop(props);
  assert.equal(result.stopReason, 'completed');
  assert.equal(result.assistantMessages.at(-1)?.content, 'Two teas are on their way.');
  assert.deepEqual(shop.orders, ['2 x tea']);
  // The invalid first call was answered with the validation error, so the model could correct itself.
  assert.match(String(session.requests[1]?.body.messages.at(-1)?.content), /quantity/);

  // A single request through the same client.
  session.enqueue({ text: 'pong' });
  const reply = await createLLMResponse({
    client,
    body: { model: 'm', messages: [{ role: 'user', content: 'ping' }] },
  });
  assert.equal(reply.answerText, 'pong');

  // A typed final answer under a budget: `output` is an OrderSummary, with no cast.
  session.enqueue({ text: JSON.stringify({ item: 'tea', quantity: 2 }) });
  const typed = await runAgentLoop({
    client,
    body: { model: 'm', messages: [{ role: 'user', content: 'Summarise the order' }] },
    tools: [],
    output: OrderSummary,
    budget: { toolCalls: 1, totalTokens: 10_000 },
  });
  const summary: OrderSummary | undefined = typed.output;
  assert.equal(typed.stopReason, 'completed');
  assert.ok(summary instanceof OrderSummary);
  assert.equal(summary.quantity, 2);

  // Errors come back as the openai SDK's own classes.
  const failing = server.session([{ status: 503, errorMessage: 'try later' }]);
  const failed = await runAgentLoop({
    client: new OpenAI({ baseURL: failing.baseURL, apiKey: failing.apiKey, maxRetries: 0 }),
    body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    tools: [],
  });
  assert.equal(failed.stopReason, 'error');
  assert.ok(failed.error instanceof APIError);
  assert.equal(failed.error.status, 503);
} finally {
  await server.close();
}
// One agentcall whether the app imports it or something requires it: one metadata store, one set of classes.
const required = createRequire(import.meta.url)('agentcall');
assert.equal(required.toolsFrom, toolsFrom);
assert.equal(required.runAgentLoop, runAgentLoop);

console.log(
  'consumer esm-ts7-openai7: compiled without a cast, ran a loop with its own openai 7 client and read a typed answer',
);
