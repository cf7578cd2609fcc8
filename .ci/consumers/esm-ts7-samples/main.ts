// Every sample, compiled as an ES module project on TypeScript 7 with `tsc --init`'s defaults (prepare.mjs copies
// them in as a user would write them), and one of them run: its helper takes an `OpenAI`, and the test kit's client
// is one, with no cast.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { startScriptedServer } from 'agentcall/testing';
import { OrderDto, takeOrder } from './samples/output/take-order.js';

const server = await startScriptedServer({
  turns: [
    { toolCalls: [{ name: 'findSku', arguments: { name: 'green tea' } }] },
    { text: JSON.stringify({ customer: 'Ada', lines: [{ sku: 'TEA-01', qty: 2 }], note: null }) },
  ],
});
try {
  const order = await takeOrder(server.client(), 'Two green teas for Ada');
  assert.ok(order instanceof OrderDto);
  assert.deepEqual(
    order.lines.map((line) => [line.sku, line.qty]),
    [['TEA-01', 2]],
  );
} finally {
  await server.close();
}
console.log('consumer esm-ts7-samples: every sample compiled under tsc --init defaults; a sample ran');
