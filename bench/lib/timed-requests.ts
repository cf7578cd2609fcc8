import { createLLMResponse, type CreateLLMResponseProps, type StreamParser } from '../../src/llm/request';
import { cpuMicros } from './harness';

/**
 * A variant for `compare`: `requests` calls of `createLLMResponse` with the given request, through `streamParser`,
 * with or without the streaming hooks, each checked to have read the whole `chars` of text. Shared by the stream
 * benchmarks of both wires so they time the same work.
 */
export function timedRequests(
  requests: number,
  chars: number,
  request: Pick<CreateLLMResponseProps, 'client' | 'body' | 'wire'>,
) {
  return (hooks: boolean, streamParser: StreamParser) => () =>
    cpuMicros(async () => {
      let seen = 0;
      for (let i = 0; i < requests; i++) {
        const res = await createLLMResponse({
          ...request,
          streamParser,
          ...(hooks
            ? {
                onStreaming: ({ text }) => (seen += text.length),
                onToolParam: ({ argsDelta }) => (seen += argsDelta.length),
              }
            : {}),
        });
        if (res.answerText.length !== chars || res.error) throw new Error('bad stream');
      }
      return seen;
    });
}
