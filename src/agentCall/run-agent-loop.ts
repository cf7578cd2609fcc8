import { ABORT_POLL_MS } from '../constants';
import { RunAbortedError } from '../errors/run-aborted.error';
import { RunTimeoutError } from '../errors/run-timeout.error';
import { linkAbort } from '../utils/abort';
import { AgentLoop } from './agent-loop';
import { RunTracing } from './run-tracing';
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
  const tracing = props.tracer
    ? new RunTracing(props.tracer, String(props.body.model), props.resumeFrom?.traceparent)
    : undefined;
  try {
    const loop = new AgentLoop(tracing ? tracing.wrap(props) : props, signal, () => (timedOut ? 'timeout' : 'aborted'));
    const result = await loop.run();
    return tracing ? tracing.end(result) : result;
  } finally {
    clearTimeout(deadline);
    clearInterval(poll);
    run.dispose();
  }
}
