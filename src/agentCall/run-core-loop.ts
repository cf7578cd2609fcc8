import { ABORT_POLL_MS } from '../constants';
import { RunAbortedError } from '../errors/run-aborted.error';
import { OutputSchemaError } from '../errors/output-schema.error';
import { RunTimeoutError } from '../errors/run-timeout.error';
import { MissingCredentialsError } from '../errors/missing-credentials.error';
import { linkAbort } from '../utils/abort';
import { toError } from '../utils/to-error';
import { resolveClient, type LLMClient } from '../llm/client';
import { invalidWire } from '../llm/wires/wire';
import { AgentLoop } from './agent-loop';
import type { NestedRun } from './agents/agent-place';
import type { OutputFormat } from './state/output-types';
import { RunEvents, userHooksObserver } from './events/observers';
import { RUN_OBSERVERS, type RunObserver, type WithRunObservers } from './events/run-events';
import { signedCheckpoints, signRunState } from './state/run-state-signature';
import { providerName, RunTracing } from './events/run-tracing';
import type { OutputOptions } from './output/output-options';
import type { RunAgentResponse } from './state/run-result';
import type { RunSlices } from './type';

const NO_OBSERVERS: readonly RunObserver[] = [];

// Stands in for the client a run without credentials could not build: such a run is refused before any request.
const NO_CLIENT: LLMClient = {
  chat: {
    completions: {
      create: () => {
        throw new MissingCredentialsError();
      },
    },
  },
};

// The core cannot read a DTO class (it never imports the decorator layer): `output` is made ready by the public
// `runAgentLoop`, and a core entry given a raw one says so instead of ignoring it.
function unresolvedOutput(): OutputSchemaError {
  return new OutputSchemaError(
    'output was given to the core loop directly: use runAgentLoop from agentcall, which reads the class or schema',
  );
}

/**
 * What the core loop takes: the door's props, whose `output` the door has already made ready (a raw one is refused).
 *
 * @internal
 */
export type CoreLoopOptions = RunSlices & Pick<OutputOptions, 'output'>;

/**
 * The core of `runAgentLoop` (the door, `src/run-agent-loop.ts`, is the one public function of that name): the run's
 * abort, deadline, client, tracer and observers around one `AgentLoop`. `observers` are heard besides the caller's
 * hooks and tracer (the queue's recorder), each isolated from the run like a hook; `output` is what the door made
 * of `props.output`.
 *
 * @internal
 */
export async function runCoreLoop(
  props: CoreLoopOptions,
  observers: readonly RunObserver[],
  /** `props.output` made ready by the door (with the output layer, `src/output/`), or why it could not be. */
  output?: OutputFormat | Error,
  /** For an agent's run (`defineAgent`): its place in the tree of agents. */
  nested?: NestedRun,
): Promise<RunAgentResponse> {
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
  const resolved = resolveClient(props.client, props.userKey);
  // What the run cannot start with ends it before its first request, as a result: runAgentLoop never rejects.
  const refusal = invalidWire(props.wire) ?? (resolved instanceof Error ? resolved : undefined);
  const client = resolved instanceof Error ? NO_CLIENT : resolved;
  const tracing = props.tracer
    ? new RunTracing(
        props.tracer,
        String(props.body.model),
        providerName(client),
        props.resumeFrom?.traceparent,
        props.traceContent === true,
        nested?.spanName,
      )
    : undefined;
  const carried = (props as WithRunObservers)[RUN_OBSERVERS] ?? NO_OBSERVERS;
  const events = new RunEvents(
    [userHooksObserver(props), tracing?.observer(), ...observers, ...carried],
    props.onHookError,
  );
  const secret = props.stateSecret;
  const inner = secret === undefined ? props : signedCheckpoints(props, secret);
  try {
    const abortReason = (): 'timeout' | 'aborted' => (timedOut ? 'timeout' : 'aborted');
    const loop = new AgentLoop(
      inner,
      signal,
      abortReason,
      events,
      client,
      tracing?.traceparent,
      refusal ?? output ?? (props.output === undefined ? undefined : unresolvedOutput()),
      nested,
      // What the run's agents report to: its observers (those its props carry too) but its tracer (an agent's run
      // has spans of its own).
      () => new RunEvents([userHooksObserver(props), ...observers, ...carried], props.onHookError),
    );
    const result = await events.within({ kind: 'run' }, () => loop.run());
    if (events.has('runEnd')) events.emit('runEnd', result);
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
