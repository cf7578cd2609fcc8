import { randomUUID } from 'node:crypto';
import type { Decision, RunAgentCallProps, RunAgentResponse, RunState } from '../../index';
import { RUN_OBSERVERS, signRunState } from '../../internal';
import type { RunObserver, WithRunObservers } from '../../internal';
import { DecisionGather } from '../decision-gather';
import { callKey, RunModel } from '../run-model';
import { errorText } from '../safe-text';
import type { RunSource } from '../source';
import { pendingViews, readModelResponses, withDecided } from './state-view';

const keepNothing = (): void => undefined;

/**
 * The agent path an event of an agent's run carries (the loop adds it to every event it hands up from an agent);
 * `undefined` for the run's own events.
 */
function pathOf(event: object): string[] | undefined {
  const path = (event as { agentPath?: unknown }).agentPath;
  return Array.isArray(path) && path.length ? (path as string[]) : undefined;
}

/**
 * The props `recorder.hooks()` returns, to spread into `runAgentLoop`: the run's id, signal and `onCheckpoint`. They
 * also carry the recorder, as an observer of the run's events, under a symbol key the loop reads (beside the app's
 * hooks, never around them).
 */
export type RecorderHooks = Required<Pick<RunAgentCallProps, 'onCheckpoint' | 'abortSignal' | 'runId'>>;

/** Options of {@link createRunRecorder}. */
export type RunRecorderOptions = {
  /** Runs kept in memory; the oldest is dropped past it (default 50). */
  maxRuns?: number;
  /**
   * Resume a waiting run with the decisions made on the page: call `runAgentLoop` with `resumeFrom: state` and
   * these `decisions` (and `...recorder.hooks()` again). Without it the page cannot approve or reject.
   */
  resume?: (run: { runId: string; state: RunState; decisions: Record<string, Decision> }) => unknown;
};

/** An in-process observer of `runAgentLoop` runs, and a source for the devtools page. */
export type RunRecorder = {
  /**
   * Hooks for one `runAgentLoop` call: spread them last (`runAgentLoop({ ...props, ...recorder.hooks(props) })`).
   * Pass the call's own props so their `runId`, `resumeFrom`, `abortSignal` and `onCheckpoint` are kept. The app's
   * hooks are left as they are: the recorder observes the run's events beside them, so one that throws costs the
   * timeline nothing.
   */
  hooks(props?: Partial<RunAgentCallProps>): RecorderHooks;
  /** Tell the recorder how a run ended (stop reason, text, error); without it the page infers the status. */
  finish(result: RunAgentResponse): void;
  /** The recorder as a source for `startDevtools`. */
  readonly source: RunSource;
};

/**
 * A recorder of the runs of this process, kept in memory (at most `maxRuns`). It is only an observer: a run that
 * is not given its hooks pays nothing, and a recorded run does what it would have done without it.
 *
 * @example
 * const recorder = createRunRecorder({ maxRuns: 20 });
 * await startDevtools({ source: recorder.source });
 * const result = await runAgentLoop({ ...props, ...recorder.hooks(props) });
 * recorder.finish(result);
 */
export function createRunRecorder(options: RunRecorderOptions = {}): RunRecorder {
  const maxRuns = options.maxRuns ?? 50;
  const runs = new Map<string, RunModel>();
  const controllers = new Map<string, AbortController>();
  const states = new Map<string, RunState>();
  /** Runs with a recorded call that has not finished. */
  const active = new Set<string>();
  const gathered = new DecisionGather();
  const listeners = new Set<(runId?: string) => void>();
  const notify = (runId?: string) => listeners.forEach((listener) => listener(runId));

  const modelOf = (runId: string): RunModel => {
    let run = runs.get(runId);
    if (!run) {
      run = new RunModel(runId);
      runs.set(runId, run);
      while (runs.size > maxRuns) {
        const oldest = runs.keys().next().value as string;
        runs.delete(oldest);
        controllers.delete(oldest);
        states.delete(oldest);
        active.delete(oldest);
        gathered.forget(oldest);
      }
      notify();
    }
    return run;
  };

  const hooks = (props: Partial<RunAgentCallProps> = {}): RecorderHooks => {
    const runId = props.resumeFrom?.runId ?? props.runId ?? randomUUID();
    const controller = new AbortController();
    // A run is recorded from its first event: a `resumeFrom` the loop refuses (a forged state under `stateSecret`)
    // emits none, so its id never reaches the list and a real run of that id is left as it was.
    let recorded: RunModel | undefined;
    const start = (): RunModel => {
      const run = modelOf(runId);
      if (props.body?.model) run.model = props.body.model;
      // What decides where the run stops, for the exported test to replay it to the same stop.
      const limits = {
        ...(props.maxRunAgentTimes !== undefined && { maxRunAgentTimes: props.maxRunAgentTimes }),
        ...(props.timeoutMs !== undefined && { timeoutMs: props.timeoutMs }),
        ...(props.budget !== undefined && { budget: props.budget }),
        ...(props.prices !== undefined && { prices: props.prices }),
        ...(props.outputRetries !== undefined && { outputRetries: props.outputRetries }),
      };
      if (props.output !== undefined) run.typedOutput = true;
      if (!props.resumeFrom || Object.keys(limits).length) run.limits = limits;
      if (!props.resumeFrom && props.body?.messages) run.input = props.body.messages;
      if (props.resumeFrom) {
        Object.assign(run.decisions, props.decisions ?? {});
        run.addStatus('running');
      }
      run.pending = [];
      controllers.set(runId, controller);
      active.add(runId);
      return run;
    };
    const current = () => (recorded ??= start());
    const changed = () => notify(runId);
    const secret = props.stateSecret;
    const prices = props.prices;
    // An observer of the run's event channel, beside the app's hooks rather than around them: a hook that throws
    // costs the timeline nothing.
    const observer: RunObserver = {
      name: 'devtools',
      requestStart: (e) => {
        if (e.body) current().startRequest(e.body);
      },
      text: (e) => {
        current().addText(e.text, Date.now(), pathOf(e));
        changed();
      },
      reasoning: (e) => {
        current().addReasoning(e.text, Date.now(), pathOf(e));
        changed();
      },
      toolCall: (e) => {
        const call = { id: e.call.id, name: e.call.function.name, arguments: e.call.function.arguments };
        current().addToolCall(call, Date.now(), pathOf(e));
        changed();
      },
      toolStart: (e) => {
        current().startTool(e.call.id, Date.now(), pathOf(e));
      },
      requestEnd: (e) => {
        const run = current();
        // The run's own prices give the cost column without `startDevtools({ pricing })`.
        const price = prices && Object.prototype.hasOwnProperty.call(prices, e.model) ? prices[e.model] : undefined;
        if (price)
          run.cost = (run.cost ?? 0) + (e.usage.inputTokens * price.input + e.usage.outputTokens * price.output) / 1e6;
        const path = pathOf(e);
        run.endRequest(
          {
            model: e.model,
            ms: e.ms,
            ...(e.firstChunkMs !== undefined ? { firstChunkMs: e.firstChunkMs } : {}),
            inputTokens: e.usage.inputTokens,
            outputTokens: e.usage.outputTokens,
            requestId: e.requestId,
          },
          Date.now(),
          path,
        );
        run.finishRequest(
          {
            ...(e.finishReason ? { finishReason: e.finishReason } : {}),
            ...(e.error !== undefined ? { error: errorText(e.error) } : {}),
          },
          path,
        );
        changed();
      },
      toolEnd: (e) => {
        const run = current();
        const path = pathOf(e);
        run.setArguments(e.call.id, e.call.function.arguments, path);
        run.endTool(
          e.call.id,
          { name: e.call.function.name, outcome: e.outcome, response: e.response, durationMs: e.durationMs },
          Date.now(),
          path,
        );
        changed();
      },
      toolSettled: (e) => {
        current().setModelResponse(e.call.id, e.modelText, pathOf(e));
        changed();
      },
      checkpoint: (state) => {
        // The page resumes with this state: signed as the loop signs what it saves, or the loop would refuse it.
        states.set(runId, secret === undefined ? state : signRunState(state, secret));
        const run = current();
        run.turns = state.turn;
        run.inputTokens = state.usage.inputTokens;
        run.outputTokens = state.usage.outputTokens;
        for (const [callId, text] of readModelResponses(state.messages)) run.setModelResponse(callId, text);
        run.pending = pendingViews(state);
        if (run.pending.length && run.status !== 'waiting') run.addStatus('waiting', { stopReason: 'interactive' });
        changed();
      },
    };
    const out: RecorderHooks & WithRunObservers = {
      runId,
      abortSignal: props.abortSignal ? AbortSignal.any([props.abortSignal, controller.signal]) : controller.signal,
      // The loop saves (and so reports) states only to an `onCheckpoint`: the app's own, or one that keeps nothing.
      onCheckpoint: props.onCheckpoint ?? keepNothing,
      // Observers already spread in (another recorder's) are kept.
      [RUN_OBSERVERS]: [...((props as WithRunObservers)[RUN_OBSERVERS] ?? []), observer],
    };
    return out;
  };

  const finish = (result: RunAgentResponse) => {
    const run = runs.get(result.state.runId);
    // Only a call that was recorded ends: a refused `resumeFrom` hands back the state it came with, id and all.
    if (!run || !active.delete(run.runId)) return;
    // A run that waits has no answer yet: its last text is the preamble of the calls it waits on.
    if (result.stopReason === 'interactive') delete run.text;
    else run.text = result.text;
    if (result.stopReason === 'tool_stop') run.stoppedBy = run.stoppingCall();
    if (result.refusal !== undefined) run.refusal = result.refusal;
    if (result.error) run.error = errorText(result.error);
    const status =
      result.stopReason === 'interactive'
        ? 'waiting'
        : result.stopReason === 'aborted'
          ? 'cancelled'
          : result.stopReason === 'error' || result.stopReason === 'timeout'
            ? 'failed'
            : 'completed';
    run.addStatus(status, { stopReason: result.stopReason });
    if (status !== 'waiting') controllers.delete(run.runId);
    notify(run.runId);
  };

  const source: RunSource = {
    list: async () =>
      [...runs.values()]
        .reverse()
        .map((run) => run.summary())
        .sort((a, b) => b.startedAt - a.startedAt),
    page: async (runId, page) => {
      const run = runs.get(runId);
      const out = run?.page(page, {
        canDecide: options.resume !== undefined && (run.pending.length ?? 0) > 0,
        canCancel: controllers.has(runId),
      });
      if (out)
        out.pending = withDecided(
          out.pending,
          gathered.decided(
            runId,
            out.pending.map((p) => p.key),
          ),
        );
      return out;
    },
    fullText: async (runId, index, field) => runs.get(runId)?.fullText(index, field),
    exchange: async (runId, index) => runs.get(runId)?.exchange(index),
    recorded: async (runId) => runs.get(runId)?.recorded(),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    decide: async (runId, decisions) => {
      const state = states.get(runId);
      if (!options.resume || !state || !runs.get(runId)?.pending.length) throw new Error('This run is not waiting.');
      const { undecided, all } = gathered.add(
        runId,
        state.pending.map((p) => callKey(p.agentPath, p.call.id)),
        decisions,
      );
      if (all) await options.resume({ runId, state, decisions: all });
      return { undecided };
    },
    cancel: async (runId) => {
      const controller = controllers.get(runId);
      if (!controller) throw new Error('This run is not running here.');
      controller.abort();
      const run = runs.get(runId);
      // A waiting run has no loop to abort: it ends here, and the page's buttons go with it.
      if (run && !active.has(runId) && run.status === 'waiting') {
        run.addStatus('cancelled', { stopReason: 'aborted' });
        run.pending = [];
        controllers.delete(runId);
        states.delete(runId);
        gathered.forget(runId);
        notify(runId);
      }
    },
  };
  return { hooks, finish, source };
}
