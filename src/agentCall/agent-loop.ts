import {
  DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS,
  DEFAULT_MAX_RUN_AGENT_TIMES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
} from '../constants';
import { DuplicateToolNameError } from '../errors/duplicate-tool-name.error';
import { EmptyModelResponseError } from '../errors/empty-model-response.error';
import { OutputValidationError } from '../errors/output-validation.error';
import { UnsupportedToolCallError } from '../errors/unsupported-tool-call.error';
import type { LLMClient } from '../llm/client';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  OutputItem,
  UsageItem,
} from '../llm/type';
import { checkToolSafety } from '../toolCall/check-tool-safety';
import { duplicateToolName } from '../toolCall/run-tool';
import type { ToolExecuteResult } from '../toolCall/type';
import { outputFeedback } from '../text/output-feedback';
import { toolErrorText } from '../text/model-text';
import { toError } from '../utils/to-error';
import { AgentNest, type ChildResume } from './agents/agent-nest';
import { keyPrefix, ROOT_PLACE, type NestedRun } from './agents/agent-place';
import { adoptPausedAgent, foldNestedPending } from './agents/nested-pending';
import { pausedChildren, runningChildren, stateWithRunning, unansweredTurn } from './agents/running-children';
import { findApprovals } from './turn/approvals';
import { AWAITING_APPROVAL_RESPONSE, keptParams } from './state/kept-params';
import { checkBudget } from './budget/check-budget';
import { checkFallback } from './fallback/check-fallback';
import { ContextFitting } from './context/context-fitting';
import { checkFinalAnswer } from './turn/final-answer';
import { advanceLoopGuard, forcesAnswer } from './turn/loop-guard';
import { FallbackRequests } from './fallback/model-fallback';
import { ModelRequests } from './turn/model-requests';
import type { RunEvents } from './events/observers';
import { DEFAULT_MAX_AGENT_DEPTH } from '../constants';
import type { OutputFormat } from './state/output-types';
import { answerCall, reportRequestEnd } from './events/report-hooks';
import {
  applyDecisions,
  keepNonEmpty,
  pausedAt,
  planDecisions,
  restoreDurableState,
  resumePoint,
  stillPaused,
  type ResumePoint,
} from './resume';
import type { RunState } from './state/run-state';
import { newDurableState, saveCheckpoint, snapshotRunState, type DurableState } from './state/run-state-snapshot';
import { cutTurnText, overCapText } from './turn/run-tool-calls';
import { BudgetMeter, budgetSpentText } from './budget/run-budget';
import { RunHistory } from './state/run-history';
import { RunTally } from './state/run-tally';
import { ToolCallRunner } from './turn/tool-call-runner';
import { ToolSearch } from './tool-search/tool-search';
import type { AgentStopReason, RunAgentResponse, ToolCallChildrenInteractive } from './state/run-result';
import type { RunSlices } from './type';

/**
 * One run of the loop: its history, counters and state, reported to its observers. `runAgentLoop` owns the timers
 * and the signal.
 */
export class AgentLoop {
  private readonly requests: ModelRequests | FallbackRequests;
  private readonly tools: ToolCallRunner;
  private readonly fitting: ContextFitting;
  private readonly history: RunHistory;
  private readonly tally = new RunTally();
  private interactiveResponse?: ToolCallChildrenInteractive;
  /** With the history, what survives a pause, a checkpoint and another process. */
  private durable: DurableState;
  /** `history.changes` at the last checkpoint: nothing changed since, nothing to save. */
  private savedChanges = 0;
  /** A `resumeFrom` this release cannot read: handed back untouched, never overwritten by a checkpoint. */
  private unreadableState?: unknown;
  /** Set when the resume input was refused: nothing ran, nothing is checkpointed, and the state is not signed. */
  refusedInput = false;
  private journalError?: { error: unknown };
  /** The run's budget, when it has one. */
  private readonly budget?: BudgetMeter;
  /** Set when a tool is deferred: what the model has found of those, and `search_tools`. */
  private readonly toolSearch?: ToolSearch;
  /** The run's `output`, made ready above the core. */
  private readonly output?: OutputFormat;
  /** Why the run cannot start (its `output`, client or wire): it ends before a request. */
  private readonly entryRefusal?: Error;
  /** The validated final answer, once there is one. */
  private outputValue?: { value: unknown };
  /** Set when a tool is an agent: what its calls need of this run, and the pauses they report. */
  private readonly nest?: AgentNest;
  /** While a resume answers its decided calls: the pause it resumed from, for the checkpoints of its agents. */
  private resumed?: Pick<DurableState, 'pending' | 'children'>;

  constructor(
    private readonly props: RunSlices,
    /** The run's signal; absent when nothing can abort the run. */
    private readonly signal: AbortSignal | undefined,
    private readonly abortReason: () => AgentStopReason,
    private readonly events: RunEvents,
    client: LLMClient,
    /** The run's trace context, carried by every state it saves. */
    traceparent: string | undefined,
    /** The run's `output` made ready, or why the run cannot start. */
    output?: OutputFormat | Error,
    /** For an agent's run: its place in the tree. */
    private readonly nested?: NestedRun,
    /** The run's observers but its tracer, for the events of its agents. */
    channel: () => RunEvents = () => events,
  ) {
    if (output instanceof Error) this.entryRefusal = output;
    else this.output = output;
    this.toolSearch = ToolSearch.of(props.tools, () => this.durable, props.body.tool_choice);
    // The run's tools then include `search_tools`: it runs, is approved and is checked for duplicates like any tool.
    if (this.toolSearch) this.props = props = { ...props, tools: this.toolSearch.tools };
    const extras = { toolSearch: this.toolSearch, output: this.output };
    this.requests = props.fallback?.length
      ? new FallbackRequests(props, props.fallback, client, signal, events, () => this.durable, extras)
      : new ModelRequests(props, client, signal, events, extras);
    this.durable = newDurableState(props, props.fallback?.length ? String(props.body.model) : undefined, traceparent);
    // An agent's run is held to its ancestors' budgets even when it has none of its own.
    const budget =
      props.budget === undefined && !nested?.budget
        ? undefined
        : new BudgetMeter(props.budget ?? {}, props.prices, nested?.budget);
    this.nest = AgentNest.of(props.tools, {
      client,
      model: () => this.requests.model,
      wire: props.wire,
      tracer: props.tracer,
      journal: props.journal,
      onHookError: props.onHookError,
      maxAgentDepth: props.maxAgentDepth ?? DEFAULT_MAX_AGENT_DEPTH,
      runId: () => this.durable.runId,
      channel,
      takeUsages: budget ? (usages) => this.pushSummaryUsages(usages, budget) : (usages) => this.pushUsages(usages),
      place: nested ?? ROOT_PLACE,
      budget,
      prices: props.prices,
      ...(props.onCheckpoint && { checkpoint: (running, paused) => this.checkpointRunning(running, paused) }),
    });
    const nest = this.nest;
    this.tools = new ToolCallRunner(
      props,
      signal,
      events,
      (error) => (this.journalError ??= { error }),
      // An agent call run again to resume its agent was counted when it first ran.
      budget && ((call) => nest?.resuming(call.id) === true || budget.admit()),
      { nest, keyPrefix: keyPrefix(nested?.path ?? []), held: nest && ((call) => nest.isPaused(call.id)) },
    );
    this.fitting = new ContextFitting(
      props,
      client,
      () => this.requests.target,
      signal,
      budget ? (usages) => this.pushSummaryUsages(usages, budget) : (usages) => this.pushUsages(usages),
      budget && (() => !budget.exhausted()),
    );
    this.history = new RunHistory(props.resumeFrom === undefined ? [...props.body.messages] : []);
    if (budget) {
      budget.bind(this.durable);
      this.budget = budget;
    }
  }

  async run(): Promise<RunAgentResponse> {
    const duplicate = duplicateToolName(this.props.tools);
    if (duplicate !== undefined) {
      // Nothing runs, and a state to resume from goes back as it came.
      this.unreadableState = this.props.resumeFrom;
      return this.finish('error', new DuplicateToolNameError(duplicate));
    }
    // Options that cannot be kept: refused before anything runs, like an unreadable state.
    const refused =
      this.entryRefusal ??
      checkToolSafety(this.props.tools) ??
      (this.props.fallback === undefined ? undefined : checkFallback(this.props.fallback)) ??
      (this.props.budget === undefined ? undefined : checkBudget(this.props));
    if (refused) {
      // Nothing runs; a state to resume from goes back as it came, unsigned: it was never verified.
      this.unreadableState = this.props.resumeFrom;
      this.refusedInput = true;
      return this.finish('error', refused);
    }
    if (this.props.resumeFrom !== undefined || this.props.childrenInteractiveParams) {
      const resumed = await this.resume();
      if (resumed) return resumed;
    }
    const maxTurns = this.props.maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const maxToolTurns = this.props.maxConsecutiveToolTurns ?? DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS;

    while (this.durable.turn < maxTurns) {
      if (this.aborted()) return this.finish(this.abortReason());
      if (this.budget?.exhausted()) return this.finish(...this.budgetStop());
      const history = this.history;
      const compressed = await this.fitting.compressHistory(history.messages, history.tokens);
      if (compressed) {
        history.reset(compressed.messages, compressed.event.afterTokens);
        // The summary is a request too: when it spent the budget, the turn's request is not made.
        if (this.budget?.exhausted()) {
          history.changes++;
          return this.finish(...this.budgetStop());
        }
      }
      this.tally.runTimes++;
      this.durable.turn++;
      history.changes++;

      const snapshot = history.messages.slice();
      const forceAnswer = forcesAnswer(this.durable.loopGuard, maxToolTurns);
      const res = await this.requests.send(history.messages, history.callIds(), forceAnswer);

      this.tally.countRequest(res);
      // The model that answered: with a `fallback` list, maybe not `body.model`.
      const model = this.requests.model;
      if (this.events.has('requestEnd')) reportRequestEnd(this.events, model, res);
      const usage: UsageItem = { moduleName: 'agent_call', model, ...res.usage };
      this.pushUsages([usage]);
      this.budget?.charge(usage, false);
      if (res.assistantMessage) {
        history.produce(res.assistantMessage);
        history.append(res.assistantMessage);
      }
      if (res.error !== undefined) return this.finish('error', res.error);
      if (res.finish_reason === 'close' || this.aborted()) return this.finish(this.abortReason());
      if (!res.toolCalls.length) {
        // A refusal is the model's answer: neither an error nor an answer to check against `output`.
        if (res.refusal) return this.finish('refusal', undefined, res.refusal);
        if (res.droppedToolCalls) return this.finish('error', new UnsupportedToolCallError(res.droppedToolCalls));
        // Output items kept beside no text (a hosted tool's call alone) are a response too, not an empty one.
        if (!res.answerText && !res.reasoningText && !res.assistantMessage?.output_items)
          return this.finish('error', new EmptyModelResponseError());
        if (!this.output) return this.finish('completed');
        const ended = await this.checkOutput(this.output, res.answerText);
        if (ended) return ended;
        continue;
      }

      this.durable.loopGuard = advanceLoopGuard(this.durable.loopGuard, res.answerText, res.toolCalls);
      const cut =
        res.finish_reason === 'length' || res.finish_reason === 'content_filter' ? res.finish_reason : undefined;
      const stop = cut ? await this.skipAll(res.toolCalls, cut) : await this.runTools(res.toolCalls, snapshot);
      const ended = await this.afterTurn(stop);
      if (ended) return ended;
    }
    return this.finish('max_turns');
  }

  /**
   * Check a final answer against `output`: valid, the run is complete; invalid, a feedback message (role `user`,
   * last) and another turn, until the feedback rounds are used up.
   */
  private async checkOutput(output: OutputFormat, text: string): Promise<RunAgentResponse | undefined> {
    const checked = await checkFinalAnswer(output, text);
    if (checked.ok) {
      this.outputValue = checked;
      return this.finish('completed');
    }
    const failures = (this.durable.outputFailures ?? 0) + 1;
    this.durable.outputFailures = failures;
    if (failures > output.retries) {
      return this.finish('output_invalid', new OutputValidationError(checked.lines, failures));
    }
    const feedback: ChatCompletionMessageParam = { role: 'user', content: outputFeedback(checked.lines) };
    this.history.append(feedback);
    this.history.produce(feedback);
    return this.afterTurn(false);
  }

  /** After a turn's tool messages are in the history: checkpoint, then end the run if it must not go on. */
  private async afterTurn(stop: boolean): Promise<RunAgentResponse | undefined> {
    const failed = await this.checkpoint();
    if (failed) return this.finish('error', failed.error);
    if (this.journalError) return this.finish('error', this.journalError.error);
    if (this.durable.pending.length) return this.finish('interactive');
    if (this.budget?.hit) return this.finish(...this.budgetStop());
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
    if (this.budget?.exhausted()) return this.refuseAll(calls);
    const cap = this.props.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN;
    const capped = calls.length > cap ? calls.slice(0, cap) : calls;
    await this.toolSearch?.noteCalls(capped);
    const { pending: approvals, parsed } = await findApprovals(capped, this.props.tools, this.props.repairArguments);
    const runnable = capped.filter((_, i) => approvals[i] === undefined);
    const results = runnable.length ? await this.tools.run(runnable, snapshot, this.durable, parsed) : [];
    let stop = false;
    let next = 0;
    for (let i = 0; i < calls.length; i++) {
      if (i >= cap) {
        const skipped = await answerCall(this.events, calls[i], () => ({
          response: overCapText(calls[i], calls.length, cap),
          outcome: 'skipped',
        }));
        await this.settle(calls[i], skipped, calls.length);
        continue;
      }
      const approval = approvals[i];
      if (approval) {
        this.durable.pending.push(approval);
        const placeholder = toolMessage(calls[i].id, AWAITING_APPROVAL_RESPONSE);
        this.history.append(placeholder);
        this.history.produce(placeholder);
        continue;
      }
      const result = results[next++];
      if (result.stop) stop = true;
      await this.settle(calls[i], result, calls.length);
    }
    return stop;
  }

  /** The request that made `calls` spent the budget: each is answered without running, in call order. */
  private async refuseAll(calls: ChatCompletionMessageToolCall[]): Promise<boolean> {
    this.budget!.refuse();
    for (const call of calls) {
      const refused = await answerCall(this.events, call, () => ({
        response: budgetSpentText(call),
        outcome: 'skipped',
      }));
      await this.settle(call, refused, calls.length);
    }
    return false;
  }

  /** The turn was cut short: none of its calls runs (their arguments may be cut), each is answered saying why. */
  private async skipAll(calls: ChatCompletionMessageToolCall[], cut: 'length' | 'content_filter'): Promise<boolean> {
    for (const call of calls) {
      const skipped = await answerCall(this.events, call, () => ({
        response: cutTurnText(call, cut),
        outcome: 'skipped',
      }));
      await this.settle(call, skipped, calls.length);
    }
    return false;
  }

  /** How a run its budget stopped ends: `'budget'`, or `'error'` when a request's model had no price. */
  private budgetStop(): [AgentStopReason, unknown?] {
    const failure = this.budget?.failure;
    return failure ? ['error', failure] : ['budget'];
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
    /** The seed's resume: the answer goes in as it was given, and only the tool's own messages count as produced. */
    asGiven = false,
  ): Promise<void> {
    // What a paused call keeps to go on is kept as a state keeps params: JSON data within the argument caps.
    const kept = result.resumeData === undefined ? undefined : keptParams(result.resumeData);
    if (result.interactive && result.resumeData !== undefined && !kept) {
      result = {
        response: toolErrorText(`${call.function.name} asked, but what it kept is not JSON data within the caps`),
      };
    }
    if (result.interactive) {
      this.durable.pending.push({
        kind: 'interactive',
        call,
        interactive: result.interactive,
        ...(kept?.params !== undefined && { resumeData: kept.params }),
      });
      this.interactiveResponse ??= pausedAt(result.interactive, call.id);
    }
    const child = this.nest?.takePause(call.id);
    if (child) adoptPausedAgent(this.durable, call.id, child);
    if (result.usages?.length) this.pushUsages(result.usages);
    const fitted = asGiven
      ? result.response
      : await this.fitting.fitToolResponse(call, result.response, callCount, this.history.tokens);
    if (this.events.has('toolSettled')) this.events.emit('toolSettled', { call, modelText: fitted });
    // Several providers refuse an empty tool message: nothing to say is sent as 'none'.
    const message = toolMessage(call.id, asGiven ? fitted : fitted || 'none');
    if (!asGiven) this.history.produce(message);
    this.history.produce(...keepNonEmpty(result.assistantMessages));
    this.history.put(message, at);
  }

  /**
   * Take over the state the run resumes from and answer its pending calls as decided; returns the final response
   * when the run must not continue into the loop (a refused input, a call still undecided, a new pause, a stop).
   */
  private async resume(): Promise<RunAgentResponse | undefined> {
    let point: ResumePoint;
    try {
      point = resumePoint(this.props, this.durable)!;
    } catch (error) {
      if (this.props.resumeFrom !== undefined) this.unreadableState = this.props.resumeFrom;
      this.refusedInput = true;
      return this.finish('error', error);
    }
    this.durable = restoreDurableState(point.state, this.durable, point.verified, this.props.fallback);
    this.budget?.bind(this.durable);
    this.history.reset(point.state.messages.slice());
    // A saved state is already stored: until something changes, there is nothing to checkpoint.
    if (!point.seed) this.history.changes = 0;
    const pending = this.durable.pending;
    const running = runningChildren(this.durable.children);
    if (running.size) {
      // Saved while agents ran: the turn goes on, each agent from its last turn.
      const turn = unansweredTurn(this.history.messages);
      if (turn) {
        const resumes = pausedChildren(this.durable.children, pending, point.decisions);
        for (const [callId, state] of running) if (!resumes.has(callId)) resumes.set(callId, { state, decisions: {} });
        return this.resumeTurn(turn.calls, turn.snapshot, resumes);
      }
    }
    if (!pending.length && !running.size) return undefined;
    const folded = foldNestedPending(pending, point.decisions, this.history.messages, this.durable.children);
    const plan = planDecisions(folded.pending, folded.decisions, Boolean(this.props.handleInteractiveTool));
    if (!plan) {
      this.interactiveResponse = stillPaused(pending);
      return this.finish('interactive');
    }
    for (const [callId, resume] of folded.children) this.nest?.willResume(callId, resume);
    for (const decided of plan)
      if (decided.action === 'run' && folded.children.has(decided.call.id)) decided.reparse = true;
    this.resumed = { pending, children: this.durable.children };
    this.durable.pending = [];
    this.durable.children = undefined;
    this.history.changes++;
    const stop = await applyDecisions(plan, folded.pending, {
      messages: this.history.messages,
      events: this.events,
      handleInteractiveTool: this.props.handleInteractiveTool,
      runTools: (calls, snapshot, parsed, answers) => this.tools.run(calls, snapshot, this.durable, parsed, answers),
      settle: (call, result, callCount, at) => this.settle(call, result, callCount, at, point.seed),
    });
    this.resumed = undefined;
    return this.afterTurn(stop);
  }

  /**
   * Go on with a turn saved while its agents ran: its calls run again as they did (the journal answers those that
   * finished), each agent resuming from its last saved turn, or from its pause with the decisions under its path.
   */
  private async resumeTurn(
    calls: ChatCompletionMessageToolCall[],
    snapshot: ChatCompletionMessageParam[],
    resumes: ReadonlyMap<string, ChildResume>,
  ): Promise<RunAgentResponse | undefined> {
    for (const [callId, resume] of resumes) this.nest?.willResume(callId, resume);
    // The agents that had paused list their calls again as they pause again.
    this.durable.pending = [];
    this.durable.children = undefined;
    this.history.changes++;
    return this.afterTurn(await this.runTools(calls, snapshot));
  }

  /** An agent of this run ended a turn: save this run's state with its agents under way (a child's turn is ours). */
  private async checkpointRunning(
    running: ReadonlyMap<string, RunState>,
    paused: ReadonlyMap<string, RunState>,
  ): Promise<void> {
    const state = stateWithRunning(this.state(true), running, this.resumed, paused);
    const failed = await saveCheckpoint(this.props.onCheckpoint!, state);
    if (failed) throw failed.error;
    if (this.events.has('checkpoint')) this.events.emit('checkpoint', state);
  }

  /**
   * Save the state when it changed since the last save; resolves to the failure that must end the run. Not async, so
   * the caller awaits the save itself, with no extra hop.
   */
  private checkpoint(): Promise<{ error: unknown } | undefined> | undefined {
    const save = this.props.onCheckpoint;
    if (!save || this.history.changes === this.savedChanges) return undefined;
    this.savedChanges = this.history.changes;
    const state = this.state(true);
    if (!this.events.has('checkpoint')) return saveCheckpoint(save, state);
    return saveCheckpoint(save, state).then((failed) => {
      if (!failed) this.events.emit('checkpoint', state);
      return failed;
    });
  }

  private state(copy: boolean): RunState {
    const { inputTokens, outputTokens } = this.tally;
    return snapshotRunState(this.durable, this.history.messages, inputTokens, outputTokens, copy);
  }

  /** The usages of the loop's own summaries, charged to the budget as the requests they are. */
  private pushSummaryUsages(usages: UsageItem[], budget: BudgetMeter): void {
    for (const usage of usages) budget.charge(usage, true);
    this.pushUsages(usages);
  }

  private pushUsages(usages: UsageItem[]): void {
    this.tally.usages.push(...usages);
    if (this.events.has('usage')) this.events.emit('usage', usages);
  }

  private aborted(): boolean {
    return this.signal?.aborted === true || Boolean(this.props.isAborted?.());
  }

  private async finish(stopReason: AgentStopReason, error?: unknown, refusal?: string): Promise<RunAgentResponse> {
    const history = this.history;
    if (this.interactiveResponse)
      this.interactiveResponse.params.toolParams.memoryRequestMessages = history.messages.slice();
    if (stopReason === 'interactive' && this.events.has('pause')) {
      this.events.emit('pause', { pending: this.durable.pending.slice() });
    }
    // An agent's last state reaches its parent as its answer (or its pause), saved with the parent's turn.
    if (!this.refusedInput && !this.nested) {
      const failed = await this.checkpoint();
      if (failed) {
        stopReason = 'error';
        error = failed.error;
      }
    }
    const tally = this.tally;
    return {
      completeMessages: history.messages,
      assistantMessages: history.produced,
      ...(this.interactiveResponse ? { interactiveResponse: this.interactiveResponse } : {}),
      inputTokens: tally.inputTokens,
      outputTokens: tally.outputTokens,
      usages: tally.usages,
      finish_reason: tally.finishReason,
      requestIds: tally.requestIds,
      text: tally.text,
      ...(error !== undefined ? { error: toError(error) } : {}),
      stopReason,
      ...(refusal !== undefined && stopReason === 'refusal' && { refusal }),
      ...keptItems(history.produced),
      ...(this.outputValue && stopReason === 'completed' && { output: this.outputValue.value }),
      runTimes: tally.runTimes,
      state: this.unreadableState === undefined ? this.state(false) : (this.unreadableState as RunState),
    };
  }
}

/** `items`: the output items this run's assistant messages kept, reasoning aside, in order; nothing when none. */
function keptItems(produced: readonly ChatCompletionMessageParam[]): { items?: OutputItem[] } {
  let items: OutputItem[] | undefined;
  for (const message of produced) {
    const kept =
      message.role === 'assistant' ? (message as ChatCompletionAssistantMessageParam).output_items : undefined;
    if (kept) for (const item of kept) if (item.type !== 'reasoning') (items ??= []).push(item);
  }
  return items ? { items } : {};
}

function toolMessage(toolCallId: string, content: string): ChatCompletionMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content };
}
