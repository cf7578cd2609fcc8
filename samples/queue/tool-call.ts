/**
 * One tool call on the queue, with no model: any worker of the queue runs it, and it outlives the process that asked.
 */
import type { ToolDefinition } from '../../src';
import type { AgentRuns, QueuedRunClient, RunWorker } from '../../src/bullmq';

/** A slow lookup, worth running where a deploy cannot cut it short. */
export const lookupOrder: ToolDefinition<{ orderId: string }> = {
  schema: {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Look an order up in the warehouse system',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    },
  },
  execute: async ({ params, idempotencyKey }) => ({ response: `Order ${params.orderId} shipped (${idempotencyKey})` }),
};

/** The worker: `setup` gets the call's id as `runId` and its meta; a tool call uses only the tools. */
export function lookupWorker(runs: AgentRuns, client: QueuedRunClient): RunWorker {
  return runs.worker({ setup: async () => ({ client, tools: [lookupOrder] }) });
}

/** Queue the call, then wait for it: any other process could read, wait for or cancel it by its id as well. */
export async function lookUp(runs: AgentRuns, orderId: string): Promise<string> {
  const { callId } = await runs.callTool({
    name: 'lookup_order',
    arguments: { orderId },
    meta: { user: 'ada' },
    ttlMs: 24 * 60 * 60_000,
  });
  const call = await runs.waitToolCall(callId, { timeoutMs: 120_000 });
  if (call?.status === 'completed') return call.result!.response;
  return `call ${callId} is ${call?.status ?? 'gone'}`;
}
