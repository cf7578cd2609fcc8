import type { ToolDefinition } from '../../src/index';

/** The sample's one tool: a refund, which waits for a person's approval before it runs. */
export const refundOrder: ToolDefinition<{ orderId: string }> = {
  schema: {
    type: 'function',
    function: {
      name: 'refund_order',
      description: 'Refund an order in full',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' } },
        required: ['orderId'],
        additionalProperties: false,
      },
    },
  },
  needsApproval: true,
  execute: async ({ params, caller }) => {
    console.log(`refunded ${params.orderId} for ${JSON.stringify(caller)}`);
    return { response: `Order ${params.orderId} is refunded.` };
  },
};
