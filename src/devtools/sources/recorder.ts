import { randomUUID } from 'node:crypto';
import type { Decision, RunAgentCallProps, RunAgentResponse, RunState } from '../../index';
import { DecisionGather } from '../decision-gather';
import { RunModel } from '../run-model';
import { errorText } from '../safe-text';
import type { RunSource } from '../source';
import { pendingViews, readModelResponses, withDecided } from './state-view';

/** The props `recorder.hooks()` returns, to spread into `runAgentLoop`. */
export type RecorderHooks = Required<
  Pick<
    RunAgentCallProps,
    | 'onStreaming'
    | 'onReasoning'
    | 'onToolCall'
    | 'onAfterToolCall'
    | 'onRequestEnd'
    | 'onCheckpoint'
    | 'onToolCompress'
    | 'abortSignal'
    | 'runId'
  >
>;

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
   * Pass the call's own props so their hooks, `runId`, `resumeFrom` and `abortSignal` are kept (each hook of
   * `props` is called first).
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
    return {
      runId,
      abortSignal: props.abortSignal ? AbortSignal.any([props.abortSignal, controller.signal]) : controller.signal,
      onStreaming: (e) => {
        props.onStreaming?.(e);
        current().addText(e.text);
        changed();
      },
      onReasoning: (e) => {
        props.onReasoning?.(e);
        current().addReasoning(e.text);
        changed();
      },
      onToolCall: (e) => {
        props.onToolCall?.(e);
        current().addToolCall({ id: e.call.id, name: e.call.function.name, arguments: e.call.function.arguments });
        changed();
      },
      onRequestEnd: (e) => {
        props.onRequestEnd?.(e);
        const run = current();
        run.endRequest({
          model: e.model,
          ms: e.ms,
          ...(e.firstChunkMs !== undefined ? { firstChunkMs: e.firstChunkMs } : {}),
          inputTokens: e.usage.inputTokens,
          outputTokens: e.usage.outputTokens,
        });
        run.finishRequest({
          ...(e.finishReason ? { finishReason: e.finishReason } : {}),
          ...(e.error !== undefined ? { error: errorText(e.error) } : {}),
        });
        changed();
      },
      onAfterToolCall: (e) => {
        props.onAfterToolCall?.(e);
        const run = current();
        run.setArguments(e.call.id, e.call.function.arguments);
        run.endTool(e.call.id, {
          name: e.call.function.name,
          outcome: e.outcome,
          response: e.response,
          durationMs: e.durationMs,
        });
        changed();
      },
      onToolCompress: (e) => {
        props.onToolCompress?.(e);
        current().setModelResponse(e.call.id, e.response);
        changed();
      },
      onCheckpoint: async (state) => {
        await props.onCheckpoint?.(state);
        states.set(runId, state);
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
  };

  const finish = (result: RunAgentResponse) => {
    const run = runs.get(result.state.runId);
    // Only a call that was recorded ends: a refused `resumeFrom` hands back the state it came with, id and all.
    if (!run || !active.delete(run.runId)) return;
    run.text = result.text;
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
            out.pending.map((p) => p.callId),
          ),
        );
      return out;
    },
    fullText: async (runId, index, field) => runs.get(runId)?.fullText(index, field),
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
        state.pending.map((p) => p.call.id),
        decisions,
      );
      if (all) await options.resume({ runId, state, decisions: all });
      return { undecided };
    },
    cancel: async (runId) => {
      const controller = controllers.get(runId);
      if (!controller) throw new Error('This run is not running here.');
      controller.abort();
    },
  };
  return { hooks, finish, source };
}
