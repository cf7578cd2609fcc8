import type OpenAI from 'openai';
import { runAgentLoop, type ChildrenInteractiveParams, type RunAgentResponse, type ToolDefinition } from '../../src';

/** A run that stops when a tool asks the user; what it returns is plain JSON, to store until the user answers. */
export async function startRun(client: OpenAI, tools: ToolDefinition[], question: string): Promise<string | undefined> {
  const result = await runAgentLoop({
    client,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
    tools,
  });
  if (result.stopReason !== 'interactive') return undefined;
  return JSON.stringify(result.interactiveResponse?.params);
}

/** Later, with the answer: the paused call's tool message becomes the handler's `response`, and the run goes on. */
export async function resumeRun(
  client: OpenAI,
  tools: ToolDefinition[],
  saved: string,
  answer: string,
): Promise<RunAgentResponse> {
  return runAgentLoop({
    client,
    body: { model: 'gpt-4o-mini', messages: [] }, // the history comes from the saved params
    tools,
    childrenInteractiveParams: JSON.parse(saved) as ChildrenInteractiveParams,
    handleInteractiveTool: async () => ({ response: `The user answered: ${answer}` }),
  });
}
