import { ABORT_POLL_MS } from '../constants';
import { RunAbortedError } from '../errors/run-aborted.error';
import { RunTimeoutError } from '../errors/run-timeout.error';
import { linkAbort } from '../utils/abort';
import { toError } from '../utils/to-error';
import { AgentLoop } from './agent-loop';
import { signedCheckpoints, signRunState } from './run-state-signature';
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
  const timeoutMs = props.timeoutMs;
  // A run that nothing can abort has no signal: its requests and tool calls then skip the listeners, the race and
  // the per-request signal that following one costs (microseconds each on Node 20).
  const run = props.abortSignal || timeoutMs || props.isAborted ? linkAbort(props.abortSignal) : undefined;
  const signal = run?.controller.signal;
  let timedOut = false;
  const deadline =
    run && timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          run.controller.abort(new RunTimeoutError(timeoutMs));
        }, timeoutMs)
      : undefined;
  const poll =
    run && props.isAborted
      ? setInterval(() => {
          if (props.isAborted?.()) run.controller.abort(new RunAbortedError());
        }, ABORT_POLL_MS)
      : undefined;
  const tracing = props.tracer
    ? new RunTracing(props.tracer, String(props.body.model), props.resumeFrom?.traceparent)
    : undefined;
  const secret = props.stateSecret;
  // Signed last, after tracing has stamped its context: the signature covers every field the state is saved with.
  const inner = secret === undefined ? props : signedCheckpoints(props, secret);
  try {
    const loop = new AgentLoop(tracing ? tracing.wrap(inner) : inner, signal, () => (timedOut ? 'timeout' : 'aborted'));
    const ended = await loop.run();
    const result = tracing ? tracing.end(ended) : ended;
    // A refused state goes back as it came: signing it would vouch for it.
    if (secret === undefined || loop.refusedInput) return result;
    try {
      return { ...result, state: signRunState(result.state, secret) };
    } catch (error) {
      // A state JSON cannot hold (a circular `caller`) cannot be signed, nor resumed: an error, not a rejection.
      return { ...result, stopReason: 'error', error: result.error ?? toError(error) };
    }
  } finally {
    clearTimeout(deadline);
    clearInterval(poll);
    run?.dispose();
  }
}
