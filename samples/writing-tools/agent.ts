import 'reflect-metadata';
import type OpenAI from 'openai';
import { runAgentLoop } from '../../src';
import { buildTools } from './build-tools';

/**
 * Decorated tools in the loop: `runAgentLoop` cannot tell them from hand-written ones. A call with bad
 * arguments is answered with the validation lines, and the model corrects itself on the next turn.
 */
export async function planTrip(client: OpenAI, question: string): Promise<string> {
  const result = await runAgentLoop({
    client,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] },
    tools: buildTools(),
    maxRunAgentTimes: 8,
  });
  if (result.error) throw new Error('The run failed', { cause: result.error });
  return result.text;
}
