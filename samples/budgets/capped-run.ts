import type OpenAI from 'openai';
import { runAgentLoop, type ModelPrice, type RunAgentResponse, type RunBudget, type RunState } from '../../src';
import type { ToolDefinition } from '../../src';

/** US dollars per million tokens, as the provider's price page lists them. */
export const prices: Record<string, ModelPrice> = {
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
};

/** At most 20 tool calls, 200,000 tokens and 5 cents, whichever is spent first. */
export const budget: RunBudget = { toolCalls: 20, totalTokens: 200_000, costUsd: 0.05 };

/** One research run under the budget; pass the state of a run the budget stopped, and a larger budget, to go on. */
export async function research(
  client: OpenAI,
  tools: ToolDefinition[],
  question: string,
  more: { resumeFrom?: RunState; budget?: RunBudget } = {},
): Promise<RunAgentResponse> {
  return runAgentLoop({
    client,
    body: { model: 'gpt-5-mini', messages: [{ role: 'user', content: question }] },
    tools,
    maxRunAgentTimes: 50,
    budget,
    prices,
    ...more,
  });
}

/** What the run spent, across resumes: for a log line or a bill. */
export function spentSummary(state: RunState): string {
  const { inputTokens, outputTokens } = state.usage;
  const spent = state.spent ?? { toolCalls: 0, costUsd: 0 };
  return `${spent.toolCalls} tool calls, ${inputTokens + outputTokens} tokens, $${spent.costUsd.toFixed(4)}`;
}
