import { OrderDto, OrderLine, takeOrder } from '../../samples/output/take-order';
import { startScriptedServer, type ScriptedServer } from '../../src/testing';

describe('samples/output/take-order', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('looks up a product with a tool, then returns the order as an OrderDto', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'findSku', arguments: { name: 'green tea' } }] },
      { text: JSON.stringify({ customer: 'Ada', lines: [{ sku: 'TEA-01', qty: 0 }], note: null }) },
      { text: JSON.stringify({ customer: 'Ada', lines: [{ sku: 'TEA-01', qty: 2 }], note: null }) },
    );
    const order = await takeOrder(server.client(), 'Two green teas for Ada, please.');

    expect(order).toBeInstanceOf(OrderDto);
    expect(order.lines[0]).toBeInstanceOf(OrderLine);
    expect(order).toEqual({ customer: 'Ada', lines: [{ sku: 'TEA-01', qty: 2 }] });
    const format = server.requests[0].body.response_format as { json_schema: { name: string; strict: boolean } };
    expect(format.json_schema).toMatchObject({ name: 'OrderDto', strict: true });
    expect(server.requests[2].body.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('\nlines[0].qty: qty must not be less than 1'),
    });
  });

  it('throws with the path: message lines when the answers stay invalid', async () => {
    server.enqueue({ text: 'An order for Ada.' }, { text: '{}' }, { text: '{"customer": "Ada"}' });
    await expect(takeOrder(server.client(), 'Tea for Ada')).rejects.toThrow(
      'no valid order:\nlines: lines is required',
    );
  });
});
