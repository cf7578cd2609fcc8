import {
  DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS,
  DEFAULT_MAX_RUN_AGENT_TIMES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
} from '../constants';
import { DuplicateToolNameError } from '../errors/duplicate-tool-name.error';
import { EmptyModelResponseError } from '../errors/empty-model-response.error';
import { UnsupportedToolCallError } from '../errors/unsupported-tool-call.error';
import { resolveClient } from '../llm/client';
import { callIdsIn } from '../llm/function-calls';
import { estimateMessageTokens, estimateMessagesTokens } from '../llm/tokens';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, UsageItem } from '../llm/type';
import { duplicateToolName } from '../toolCall/run-tool';
import type { RunToolResult, ToolExecuteResult } from '../toolCall/type';
import { callHook } from '../utils/call-hook';
import { toError } from '../utils/to-error';
import { AWAITING_APPROVAL_RESPONSE, findApprovals } from './approvals';
import { ContextFitting } from './context-fitting';
import { planDecisions, type DecidedCall } from './decisions';
import { advanceLoopGuard, forcesAnswer } from './loop-guard';
import { ModelRequests } from './model-requests';
import { reportAnsweredCall, reportRequestEnd } from './report-hooks';
import {
  answerPausedTool,
  checkSavedState,
  decidedTurn,
  handlePausedCall,
  restoreDurableState,
  stillPaused,
  type PausedToolAnswer,
} from './restore-run';
import { keepNonEmpty, pausedAt } from './resume-interactive';
import type { RunState } from './run-state';
import { newDurableState, saveCheckpoint, snapshotRunState, type DurableState } from './run-state-snapshot';
import { overCapText } from './run-tool-calls';
import { TOOL_SETTLED, type TracedProps } from './run-tracing';
import { validateInteractiveParams } from './validate-run-state';
import { ToolCallRunner } from './tool-call-runner';
import type { AgentStopReason, RunAgentResponse, ToolCallChildrenInteractive } from './type';

/** One run of the loop: its history, counters and hooks. `runAgentLoop` owns the timers and the signal. */
export class AgentLoop {
  private readonly model: string;
  private readonly requests: ModelRequests;
  private readonly tools: ToolCallRunner;
  private readonly fitting: ContextFitting;
  private messages: ChatCompletionMessageParam[];
  /** Estimated tokens of `messages`, kept up to date as messages are appended (each counted once). */
  private historyTokens: number;
  private readonly assistantMessages: ChatCompletionMessageParam[] = [];
  private readonly usages: UsageItem[] = [];
  private readonly requestIds: string[] = [];
  private inputTokens = 0;
  private outputTokens = 0;
  private runTimes = 0;
  private finishReason: RunAgentResponse['finish_reason'] = null;
  private interactiveResponse?: ToolCallChildrenInteractive;
  /** The last assistant text the model wrote in this run. */
  private text = '';
  /** Every tool-call id in the history: a new call never reuses one (seeded at the first request). */
  private callIds?: Set<string>;
  /** With `messages`, what survives a pause, a checkpoint and another process. */
  private durable: DurableState;
  /** Bumped on every change to the state; a checkpoint is skipped when nothing changed since the last one. */
  private changes = 1;
  private savedChanges = 0;
  /** A `resumeFrom` this release cannot read: handed back untouched, never overwritten by a checkpoint. */
  private unreadableState?: unknown;
  /** Set when the resume input was refused: nothing ran, nothing is checkpointed, and the state is not signed. */
  refusedInput = false;
  private journalError?: { error: unknown };

  constructor(
    private readonly props: TracedProps,
    /** The run's signal; absent when nothing can abort the run. */
    private readonly signal: AbortSignal | undefined,
    private readonly abortReason: () => AgentStopReason,
  ) {
    const client = resolveClient(props.client, props.userKey);
    this.model = String(props.body.model);
    this.requests = new ModelRequests(props, client, signal);
    this.tools = new ToolCallRunner(props, signal, (error) => (this.journalError ??= { error }));
    this.fitting = new ContextFitting(props, client, this.model, signal, (usages) => this.pushUsages(usages));
    this.messages = props.resumeFrom === undefined ? [...props.body.messages] : [];
    this.historyTokens = estimateMessagesTokens(this.messages);
    this.durable = newDurableState(props);
  }

  async run(): Promise<RunAgentResponse> {
    const duplicate = duplicateToolName(this.props.tools);
    if (duplicate !== undefined) {
      // Nothing runs, and a state to resume from goes back as it came.
      this.unreadableState = this.props.resumeFrom;
      return this.finish('error', new DuplicateToolNameError(duplicate));
    }
    if (this.props.resumeFrom !== undefined) {
      const resumed = await this.restore(this.props.resumeFrom);
      if (resumed) return resumed;
    } else if (this.props.childrenInteractiveParams) {
      try {
        validateInteractiveParams(this.props.childrenInteractiveParams);
      } catch (error) {
        this.refusedInput = true;
        return this.finish('error', error);
      }
      const resumed = this.resume(await answerPausedTool(this.props));
      if (resumed) return resumed;
    }
    const maxTurns = this.props.maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const maxToolTurns = this.props.maxConsecutiveToolTurns ?? DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS;

    while (this.durable.turn < maxTurns) {
      if (this.aborted()) return this.finish(this.abortReason());
      const compressed = await this.fitting.compressHistory(this.messages, this.historyTokens);
      if (compressed) {
        this.messages = compressed.messages;
        this.historyTokens = compressed.event.afterTokens;
      }
      this.runTimes++;
      this.durable.turn++;
      this.changes++;

      const snapshot = this.messages.slice();
      const forceAnswer = forcesAnswer(this.durable.loopGuard, maxToolTurns);
      const res = await this.requests.send(this.messages, (this.callIds ??= callIdsIn(this.messages)), forceAnswer);

      this.finishReason = res.finish_reason;
      this.requestIds.push(res.requestId);
      if (this.props.onRequestEnd) reportRequestEnd(this.props, this.model, res);
      this.inputTokens += res.usage.inputTokens;
      this.outputTokens += res.usage.outputTokens;
      this.pushUsages([{ moduleName: 'agent_call', model: this.model, ...res.usage }]);
      if (res.answerText) this.text = res.answerText;
      if (res.assistantMessage) {
        this.assistantMessages.push(res.assistantMessage);
        this.append(res.assistantMessage);
      }
      if (res.error !== undefined) return this.finish('error', res.error);
      if (res.finish_reason === 'close' || this.aborted()) return this.finish(this.abortReason());
      if (!res.toolCalls.length) {
        if (res.droppedToolCalls) return this.finish('error', new UnsupportedToolCallError(res.droppedToolCalls));
        if (!res.answerText && !res.reasoningText) return this.finish('error', new EmptyModelResponseError());
        return this.finish('completed');
      }

      this.durable.loopGuard = advanceLoopGuard(this.durable.loopGuard, res.answerText, res.toolCalls);
      const stop = await this.runTools(res.toolCalls, snapshot);
      const ended = await this.afterTurn(stop);
      if (ended) return ended;
    }
    return this.finish('max_turns');
  }

  /** After a turn's tool messages are in the history: checkpoint, then end the run if it must not go on. */
  private async afterTurn(stop: boolean): Promise<RunAgentResponse | undefined> {
    const failed = await this.checkpoint();
    if (failed) return this.finish('error', failed.error);
    if (this.journalError) return this.finish('error', this.journalError.error);
    if (this.durable.pending.length) return this.finish('interactive');
    if (stop) return this.finish('tool_stop');
    if (this.aborted()) return this.finish(this.abortReason());
    return undefined;
  }

  /**
   * Run a turn's calls and append their tool messages in call order; true when a tool asked to stop. Calls that
   * need approval do not run: they become pending, answered by a placeholder until a decision replaces it.
   */
  private async runTools(
    calls: ChatCompletionMessageToolCall[],
    snapshot: ChatCompletionMessageParam[],
  ): Promise<boolean> {
    const cap = this.props.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN;
    const capped = calls.length > cap ? calls.slice(0, cap) : calls;
    const approvals = await findApprovals(capped, this.props.tools);
    const runnable = capped.filter((_, i) => approvals[i] === undefined);
    const results = runnable.length ? await this.tools.run(runnable, snapshot, this.durable) : [];
    let stop = false;
    let next = 0;
    for (let i = 0; i < calls.length; i++) {
      if (i >= cap) {
        const skipped: RunToolResult = { response: overCapText(calls[i], calls.length, cap), outcome: 'skipped' };
        reportAnsweredCall(this.props, calls[i], skipped, 0);
        await this.settle(calls[i], skipped, calls.length);
        continue;
      }
      const approval = approvals[i];
      if (approval) {
        this.durable.pending.push(approval);
        const placeholder = toolMessage(calls[i].id, AWAITING_APPROVAL_RESPONSE);
        this.append(placeholder);
        this.assistantMessages.push(placeholder);
        continue;
      }
      const result = results[next++];
      if (result.stop) stop = true;
      await this.settle(calls[i], result, calls.length);
    }
    return stop;
  }

  /**
   * Take a call's result into the run (a new pause, usages, tool-internal messages) and put its tool message in
   * the history: over the placeholder at index `at` for a call that was waiting, else at the end.
   */
  private async settle(
    call: ChatCompletionMessageToolCall,
    result: ToolExecuteResult,
    callCount: number,
    at?: number,
  ): Promise<void> {
    if (result.interactive) {
      this.durable.pending.push({ kind: 'interactive', call, interactive: result.interactive });
      this.interactiveResponse ??= pausedAt(result.interactive, call.id);
    }
    if (result.usages?.length) this.pushUsages(result.usages);
    const fitted = await this.fitting.fitToolResponse(call, result.response, callCount, this.historyTokens);
    this.props[TOOL_SETTLED]?.(call.id, fitted);
    // Several providers refuse an empty tool message: nothing to say is sent as 'none'.
    const message = toolMessage(call.id, fitted || 'none');
    this.assistantMessages.push(message, ...keepNonEmpty(result.assistantMessages));
    if (at === undefined) {
      this.append(message);
    } else {
      this.historyTokens += estimateMessageTokens(message) - estimateMessageTokens(this.messages[at]);
      this.messages[at] = message;
    }
  }

  /**
   * Take over a saved run state and answer its pending calls with `decisions`; returns the final response when
   * the run must not continue into the loop (an unreadable state, a call still undecided, a new pause, a stop).
   */
  private async restore(saved: RunState): Promise<RunAgentResponse | undefined> {
    let verified: boolean;
    try {
      verified = checkSavedState(saved, this.props.stateSecret);
    } catch (error) {
      this.unreadableState = saved;
      this.refusedInput = true;
      return this.finish('error', error);
    }
    this.durable = restoreDurableState(saved, this.durable, verified);
    this.messages = saved.messages.slice();
    this.historyTokens = estimateMessagesTokens(this.messages);
    // The saved state is already stored: until something changes, there is nothing to checkpoint.
    this.changes = 0;
    const pending = this.durable.pending;
    if (!pending.length) return undefined;
    const plan = planDecisions(pending, this.props.decisions, Boolean(this.props.handleInteractiveTool));
    if (!plan) {
      this.interactiveResponse = stillPaused(pending);
      return this.finish('interactive');
    }
    const stop = await this.applyDecisions(plan);
    return this.afterTurn(stop);
  }

  /** Answer each pending call as decided, replacing its placeholder tool message in place; true on a `stop`. */
  private async applyDecisions(plan: DecidedCall[]): Promise<boolean> {
    const { toolIndex, approved, snapshot } = decidedTurn(this.messages, this.durable.pending, plan);
    this.durable.pending = [];
    this.changes++;
    const results = approved.length ? await this.tools.run(approved, snapshot, this.durable) : [];
    let next = 0;
    let stop = false;
    for (const decided of plan) {
      const call = decided.action === 'handle' ? decided.pending.call : decided.call;
      let result: RunToolResult;
      if (decided.action === 'run') {
        result = results[next++];
      } else {
        const started = performance.now();
        result =
          decided.action === 'handle'
            ? await handlePausedCall(this.props.handleInteractiveTool!, decided.pending, this.messages)
            : { ...decided.result, outcome: decided.action === 'reject' ? 'rejected' : 'ok' };
        reportAnsweredCall(this.props, call, result, performance.now() - started);
      }
      if (result.stop) stop = true;
      await this.settle(call, result, plan.length, toolIndex.get(call.id));
    }
    return stop;
  }

  /**
   * Take a paused tool's answer into the run; returns the final response when the run must not continue into the
   * loop. Not async: `run` awaits the answer, then this, with no hop between.
   */
  private resume({ result, messages, call }: PausedToolAnswer) {
    this.messages = messages;
    this.historyTokens = estimateMessagesTokens(messages);
    this.assistantMessages.push(...keepNonEmpty(result.assistantMessages));
    if (result.usages?.length) this.pushUsages(result.usages);
    if (result.interactive) {
      const pausedId = this.props.childrenInteractiveParams!.toolParams.toolCallId;
      this.interactiveResponse = pausedAt(result.interactive, pausedId);
      if (call) this.durable.pending.push({ kind: 'interactive', call, interactive: result.interactive });
      return this.finish('interactive');
    }
    return result.stop ? this.finish('tool_stop') : undefined;
  }

  /**
   * Save the state when it changed since the last save; resolves to the failure that must end the run. Not async, so
   * the caller awaits the save itself, with no extra hop.
   */
  private checkpoint(): Promise<{ error: unknown } | undefined> | undefined {
    const save = this.props.onCheckpoint;
    if (!save || this.changes === this.savedChanges) return undefined;
    this.savedChanges = this.changes;
    return saveCheckpoint(save, this.state(true));
  }

  private state(copy: boolean): RunState {
    return snapshotRunState(this.durable, this.messages, this.inputTokens, this.outputTokens, copy);
  }

  private append(message: ChatCompletionMessageParam): void {
    this.changes++;
    this.messages.push(message);
    this.historyTokens += estimateMessageTokens(message);
  }

  private pushUsages(usages: UsageItem[]): void {
    this.usages.push(...usages);
    const { usagePush } = this.props;
    if (usagePush) callHook(usagePush, 'usagePush', usages, this.props.onHookError);
  }

  private aborted(): boolean {
    return this.signal?.aborted === true || Boolean(this.props.isAborted?.());
  }

  private async finish(stopReason: AgentStopReason, error?: unknown): Promise<RunAgentResponse> {
    if (this.interactiveResponse)
      this.interactiveResponse.params.toolParams.memoryRequestMessages = this.messages.slice();
    if (!this.refusedInput) {
      const failed = await this.checkpoint();
      if (failed) {
        stopReason = 'error';
        error = failed.error;
      }
    }
    return {
      completeMessages: this.messages,
      assistantMessages: this.assistantMessages,
      ...(this.interactiveResponse ? { interactiveResponse: this.interactiveResponse } : {}),
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      usages: this.usages,
      finish_reason: this.finishReason,
      requestIds: this.requestIds,
      text: this.text,
      ...(error !== undefined ? { error: toError(error) } : {}),
      stopReason,
      runTimes: this.runTimes,
      state: this.unreadableState === undefined ? this.state(false) : (this.unreadableState as RunState),
    };
  }
}

function toolMessage(toolCallId: string, content: string): ChatCompletionMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content };
}
