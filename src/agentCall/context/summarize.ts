import type { LLMClient } from '../../llm/client';
import { createLLMResponse } from '../../llm/request';
import type { Wire } from '../../llm/wires/wire';

/**
 * Where a summary request goes: the client, model and wire of the run's own requests (after a fallback, the entry the
 * run is on), or `compression.model` on the run's client.
 *
 * @internal
 */
export type SummaryTarget = { client: LLMClient; model: string; wire?: Wire | undefined };

/**
 * One plain (non-streamed), low-temperature request that rewrites `text` as `instructions` say: what both
 * compressions ask of the model. Undefined when the request failed, was aborted, or came back empty.
 */
export async function summarize({
  client,
  model,
  instructions,
  text,
  abortSignal,
  wire,
}: {
  client: LLMClient;
  model: string;
  instructions: string;
  text: string;
  abortSignal?: AbortSignal;
  /** The run's wire: a summary goes over the same API as the run's own requests. */
  wire?: Wire;
}): Promise<{ text: string; inputTokens: number; outputTokens: number } | undefined> {
  const res = await createLLMResponse({
    client,
    abortSignal,
    wire,
    body: {
      model,
      stream: false,
      temperature: 0.1,
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: text },
      ],
    },
  });
  const answer = res.answerText.trim();
  if (res.error !== undefined || res.finish_reason === 'close' || !answer) return undefined;
  return { text: answer, ...res.usage };
}
