import type OpenAI from 'openai';
import { defineAgent, runAgentLoop, type Decision, type RunAgentResponse, type RunState } from '../../src';
import type { ToolDefinition } from '../../src';

/** A tool the research agent may call freely. */
export const searchTool: ToolDefinition<{ query: string }> = {
  schema: {
    type: 'function',
    function: {
      name: 'search',
      description: 'Search the catalogue',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  },
  execute: async ({ params }) => ({ response: `3 offers for ${params.query}` }),
};

/** A tool that spends money: a person approves each call. */
export const refundTool: ToolDefinition<{ orderId: string }> = {
  schema: {
    type: 'function',
    function: {
      name: 'refund',
      description: 'Refund an order',
      parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    },
  },
  needsApproval: true,
  execute: async ({ params, idempotencyKey }) => ({ response: `refunded ${params.orderId} (${idempotencyKey})` }),
};

/** The first sub-agent: researches with its own tool. */
export const researcher = defineAgent({
  name: 'research',
  description: 'Finds offers in the catalogue',
  instructions: 'You search the catalogue and report what you found.',
  tools: [searchTool],
});

/** The second sub-agent: refunds orders, each refund approved by a person. */
export const cashier = defineAgent({
  name: 'cashier',
  description: 'Refunds orders',
  instructions: 'You refund the orders you are asked to refund.',
  tools: [refundTool],
});

/** The master agent's run: it sees its two sub-agents as two tools. */
export function runMaster(
  client: OpenAI,
  question: string,
  resume: { resumeFrom?: RunState; decisions?: Record<string, Decision> } = {},
): Promise<RunAgentResponse> {
  return runAgentLoop({
    client,
    body: { model: 'gpt-5-mini', messages: [{ role: 'user', content: question }] },
    tools: [researcher, cashier],
    runId: 'support-1',
    ...resume,
  });
}

/** Approve every call a sub-agent waits on: decisions are keyed by the call's path from the root. */
export function approveAll(state: RunState): Record<string, Decision> {
  const decisions: Record<string, Decision> = {};
  for (const pending of state.pending) {
    decisions[[...(pending.agentPath ?? []), pending.call.id].join('/')] = { approve: true };
  }
  return decisions;
}
