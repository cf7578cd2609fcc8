import { ABORT_POLL_MS } from '../constants';
import { RunAbortedError } from '../errors/run-aborted.error';
import { RunTimeoutError } from '../errors/run-timeout.error';
import { linkAbort } from '../utils/abort';
import { AgentLoop } from './agent-loop';
import type { RunAgentCallProps, RunAgentResponse } from './type';

/**
 * Run the model in a loop: request → run its tool calls → append one tool message per call → repeat,
 * until it answers, a tool says `stop` or asks the user (`interactive`), the run is aborted, or a limit is
 * reached. Model errors come back in `error` with every message gathered so far; it does not throw.
 *
 * @example
 * const result = await runAgentLoop({
 *   client: new OpenAI(),
 *   body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
 *   tools: [weatherTool],
 *   onStreaming: ({ text }) => process.stdout.write(text),
 * });
 * console.log(result.stopReason, result.completeMessages.at(-1));
 */
export async function runAgentLoop(props: RunAgentCallProps): Promise<RunAgentResponse> {
  const run = linkAbort(props.abortSignal);
  const signal = run.controller.signal;
  let timedOut = false;
  const timeoutMs = props.timeoutMs;
  const deadline = timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        run.controller.abort(new RunTimeoutError(timeoutMs));
      }, timeoutMs)
    : undefined;
  const poll = props.isAborted
    ? setInterval(() => {
        if (props.isAborted?.()) run.controller.abort(new RunAbortedError());
      }, ABORT_POLL_MS)
    : undefined;
  try {
    return await new AgentLoop(props, signal, () => (timedOut ? 'timeout' : 'aborted')).run();
  } finally {
    clearTimeout(deadline);
    clearInterval(poll);
    run.dispose();
  }
}
