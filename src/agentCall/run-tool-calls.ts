import { runTool } from '../toolCall/run-tool';
import type { ToolDefinition, ToolExecuteResult } from '../toolCall/type';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';

/** Arguments of {@link runToolCalls}. */
export type RunToolCallsProps = {
  calls: ChatCompletionMessageToolCall[];
  messages: ChatCompletionMessageParam[];
  tools: ToolDefinition[];
  signal: AbortSignal;
  concurrency: number;
  defaultTimeoutMs?: number;
  caller?: unknown;
  onAfterToolCall?: (e: { call: ChatCompletionMessageToolCall; response: string }) => void;
};

/**
 * Run one turn's tool calls, at most `concurrency` at once, and return their results in call order.
 * A call not yet started when the run is aborted is answered without running, so every call still gets
 * exactly one result.
 */
export async function runToolCalls({
  calls,
  messages,
  tools,
  signal,
  concurrency,
  defaultTimeoutMs,
  caller,
  onAfterToolCall,
}: RunToolCallsProps): Promise<ToolExecuteResult[]> {
  const results = new Array<ToolExecuteResult>(calls.length);
  const runOne = async (index: number) => {
    const call = calls[index];
    const result = signal.aborted
      ? { response: `Tool error: ${call.function.name} was not run because the run was aborted` }
      : await runTool({ call, messages, tools, signal, defaultTimeoutMs, caller });
    results[index] = result;
    if (onAfterToolCall) {
      try {
        onAfterToolCall({ call, response: result.response });
      } catch {
        // A throwing observer must not cost the model its tool message.
      }
    }
  };

  if (concurrency <= 1 || calls.length <= 1) {
    for (let i = 0; i < calls.length; i++) await runOne(i);
    return results;
  }
  let next = 0;
  const worker = async () => {
    while (next < calls.length) await runOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
  return results;
}
