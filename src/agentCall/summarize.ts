import type { LLMClient } from '../llm/client';
import { createLLMResponse } from '../llm/request';

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
}: {
  client: LLMClient;
  model: string;
  instructions: string;
  text: string;
  abortSignal?: AbortSignal;
}): Promise<{ text: string; inputTokens: number; outputTokens: number } | undefined> {
  const res = await createLLMResponse({
    client,
    abortSignal,
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
