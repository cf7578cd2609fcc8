import { runCoreLoop } from './agentCall/run-core-loop';
import type { RunObserver } from './agentCall/events/run-events';
import type { RunAgentCallProps, RunAgentResponse } from './agentCall/type';
import { resolveOutput } from './output/resolve-output';

/**
 * Run the model in a loop: request → run its tool calls → append one tool message per call → repeat,
 * until it answers, a tool says `stop` or asks the user (`interactive`), the run is aborted, or a limit is
 * reached. Model errors come back in `error` with every message gathered so far; it does not throw.
 *
 * With `output` (a class-validator DTO class or a Standard Schema), the final answer is JSON validated against it
 * and returned as `output`, typed as an instance of the class; see `docs/typed-output.md`.
 *
 * @example
 * const result = await runAgentLoop({
 *   client: new OpenAI(),
 *   body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
 *   tools: [weatherTool],
 *   onStreaming: ({ text }) => process.stdout.write(text),
 * });
 * console.log(result.stopReason, result.completeMessages.at(-1));
 *
 * @example
 * const { output } = await runAgentLoop({ client, body, tools, output: OrderDto });
 * output?.items; // OrderDto | undefined
 */
export function runAgentLoop<T = unknown>(props: RunAgentCallProps<T>): Promise<RunAgentResponse<T>> {
  return runObservedLoop(props, NO_OBSERVERS);
}

const NO_OBSERVERS: readonly RunObserver[] = [];

/**
 * `runAgentLoop` with more observers of the run besides the caller's hooks and tracer (the queue's recorder), each
 * isolated from the run like a hook.
 *
 * @internal
 */
export function runObservedLoop<T = unknown>(
  props: RunAgentCallProps<T>,
  observers: readonly RunObserver[],
): Promise<RunAgentResponse<T>> {
  const run =
    props.output === undefined ? runCoreLoop(props, observers) : runCoreLoop(props, observers, resolveOutput(props));
  // The core checked `output` with the schema `T` came from: a completed run's `output` is a `T`.
  return run as Promise<RunAgentResponse<T>>;
}
