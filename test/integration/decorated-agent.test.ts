import 'reflect-metadata';
import { IsInt, IsPositive, Min } from 'class-validator';
import { Ctx, Param, runAgentLoop, Tool, toolResult, toolsFrom } from '../../src';
import type { ToolExecuteContext } from '../../src';
import { startScriptedServer } from '../../src/testing';
import { sentTools } from '../helpers/wire-under-test';

class OrderLine {
  @Param({ description: 'Product code' }) sku!: string;
  @Param({ description: 'How many' }) @IsInt() @Min(1) qty!: number;
}

class OrderDto {
  @Param({ description: 'Customer id' }) customerId!: string;
  @Param({ type: () => [OrderLine] }) lines!: OrderLine[];
  @Param({ optional: true, description: 'Note for the warehouse' }) note?: string;
}

class ShopTools {
  readonly placed: { order: OrderDto; callId: string }[] = [];

  @Tool({ name: 'place_order', description: 'Place an order', strict: true })
  placeOrder(@Param() order: OrderDto, @Ctx() ctx: ToolExecuteContext) {
    this.placed.push({ order, callId: ctx.call.id });
    return { orderId: `ord_${this.placed.length}`, lines: order.lines.length };
  }

  @Tool({ description: 'Refund an order and end the conversation' })
  refund(@Param('orderId') orderId: string, @Param('amount', {}, IsPositive()) amount: number) {
    if (orderId === 'ord_missing') throw new Error(`Order ${orderId} does not exist`);
    return toolResult.stop(`Refunded ${amount} on ${orderId}`);
  }
}

function toolMessages(body: { messages: { role: string; content?: unknown }[] }): unknown[] {
  return body.messages.filter((message) => message.role === 'tool').map((message) => message.content);
}

describe('a decorated class in runAgentLoop', () => {
  it('answers bad arguments with the validation lines, and the model succeeds on the next turn', async () => {
    const shop = new ShopTools();
    const tools = toolsFrom(shop);
    const server = await startScriptedServer({
      turns: [
        {
          toolCalls: [
            {
              id: 'call_bad',
              name: 'place_order',
              arguments: {
                lines: [
                  { sku: 'A-1', qty: 0 },
                  { sku: 42, qty: 1, colour: 'red' },
                ],
                note: null,
                coupon: 'FREE',
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              id: 'call_good',
              name: 'place_order',
              arguments: { customerId: 'cus_7', lines: [{ sku: 'A-1', qty: 2 }], note: null },
            },
          ],
        },
        { text: 'Order ord_1 is placed.' },
      ],
    });
    try {
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'scripted', messages: [{ role: 'user', content: 'Two of A-1 for cus_7, please.' }] },
        tools,
        maxRunAgentTimes: 5,
      });

      expect(result.error).toBeUndefined();
      expect(result.stopReason).toBe('completed');
      expect(sentTools(server.requests[0])).toEqual(tools.map((tool) => tool.schema));
      expect(toolMessages(server.requests[1].body)).toEqual([
        [
          'Invalid arguments for tool "place_order":',
          'coupon: property coupon should not exist',
          'customerId: customerId is required',
          'lines[0].qty: qty must not be less than 1',
          'lines[1].colour: property colour should not exist',
          'lines[1].sku: sku must be a string',
        ].join('\n'),
      ]);
      expect(toolMessages(server.requests[2].body)).toEqual([
        toolMessages(server.requests[1].body)[0],
        '{"orderId":"ord_1","lines":1}',
      ]);

      expect(shop.placed).toHaveLength(1);
      const [{ order, callId }] = shop.placed;
      expect(callId).toBe('call_good');
      expect(order).toBeInstanceOf(OrderDto);
      expect(order.lines[0]).toBeInstanceOf(OrderLine);
      expect(Object.keys(order)).toEqual(['customerId', 'lines']);
      expect(result.completeMessages.at(-1)).toMatchObject({ role: 'assistant', content: 'Order ord_1 is placed.' });
    } finally {
      await server.close();
    }
  });

  it('reports what a method throws as a tool error, and ends the run when a tool returns stop', async () => {
    const server = await startScriptedServer({
      turns: [
        { toolCalls: [{ name: 'refund', arguments: { orderId: 'ord_missing', amount: 5 } }] },
        { toolCalls: [{ name: 'refund', arguments: { orderId: 'ord_1', amount: 5 } }] },
        { text: 'never requested' },
      ],
    });
    try {
      const result = await runAgentLoop({
        client: server.client(),
        body: { model: 'scripted', messages: [{ role: 'user', content: 'Refund 5 on my order.' }] },
        tools: toolsFrom(new ShopTools()),
      });
      expect(result.stopReason).toBe('tool_stop');
      expect(server.requests).toHaveLength(2);
      expect(toolMessages(server.requests[1].body)).toEqual([
        expect.stringMatching(/^Tool error: .*Order ord_missing does not exist/),
      ]);
      expect(result.completeMessages.at(-1)).toMatchObject({ role: 'tool', content: 'Refunded 5 on ord_1' });
    } finally {
      await server.close();
    }
  });
});
