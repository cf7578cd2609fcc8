import { createHash, randomUUID } from 'node:crypto';
import {
  COMPRESSION_KEEP_SHARE,
  DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS,
  DEFAULT_MAX_RUN_AGENT_TIMES,
  DEFAULT_MAX_TOOL_CALLS_PER_TURN,
  DEFAULT_TOOL_CONCURRENCY,
} from '../constants';
import { EmptyModelResponseError } from '../errors/empty-model-response.error';
import { resolveClient } from '../llm/client';
import { createLLMResponse, type LLMResponse } from '../llm/request';
import { estimateMessageTokens, estimateMessagesTokens } from '../llm/tokens';
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  UsageItem,
} from '../llm/type';
import type { RunToolResult, ToolExecuteResult } from '../toolCall/type';
import { toError } from '../utils/to-error';
import { callHook } from '../utils/call-hook';
import { callIdsIn } from '../llm/function-calls';
import { UnsupportedToolCallError } from '../errors/unsupported-tool-call.error';
import { AWAITING_APPROVAL_RESPONSE, findApprovals } from './approvals';
import { historyLimit, toolResponseBudget } from './budget';
import { compressContext } from './compress-context';
import { compressToolResponse } from './compress-tool-response';
import { keepNonEmpty, pausedAt, restoreInteractiveHistory, runInteractiveHandler } from './resume-interactive';
import { planDecisions, type DecidedCall } from './decisions';
import { locatePending } from './pending-messages';
import { assertRunState, RUN_STATE_VERSION, type PendingCall, type RunState } from './run-state';
import { overCapText, runToolCalls } from './run-tool-calls';
import { TOOL_SETTLED, type TracedProps } from './run-tracing';
import type { AgentStopReason, RunAgentCallProps, RunAgentResponse, ToolCallChildrenInteractive } from './type';

/** One run of the loop: its history, counters and hooks. `runAgentLoop` owns the timers and the signal. */
export class AgentLoop {
  private readonly client;
  private readonly model: string;
  private readonly schemas: ChatCompletionTool[] | undefined;
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
  private readonly body: RunAgentCallProps['body'];
  /** Every tool-call id in the history: a new call never reuses one (seeded at the first request). */
  private callIds?: Set<string>;

  // Run state: what survives a pause, a checkpoint and another process.
  private runId: string;
  /** Model requests across resumes. */
  private turn = 0;
  /** Main request tokens of the runs before this resume. */
  private priorUsage = { inputTokens: 0, outputTokens: 0 };
  private loopGuard = { signature: '', repeats: 0 };
  private pending: PendingCall[] = [];
  private hasCaller: boolean;
  private caller: unknown;
  /** Bumped on every change to the state; a checkpoint is skipped when nothing changed since the last one. */
  private changes = 1;
  private savedChanges = 0;
  /** A `resumeFrom` this release cannot read: handed back untouched, never overwritten by a checkpoint. */
  private unreadableState?: unknown;
  private journalError?: { error: unknown };

  constructor(
    private readonly props: TracedProps,
    private readonly signal: AbortSignal,
    private readonly abortReason: () => AgentStopReason,
  ) {
    this.client = resolveClient(props.client, props.userKey);
    this.model = String(props.body.model);
    this.schemas = props.tools.length ? props.tools.map((t) => t.schema) : undefined;
    // `tools` is not part of the body's type, but a plain-JS caller may still pass it: the model must only see `tools`.
    const { tools: _ignored, ...body } = props.body as RunAgentCallProps['body'] & { tools?: unknown };
    this.body = body;
    this.messages = props.resumeFrom === undefined ? [...props.body.messages] : [];
    this.historyTokens = estimateMessagesTokens(this.messages);
    this.runId = props.runId ?? randomUUID();
    this.hasCaller = 'caller' in props;
    this.caller = props.caller;
  }

  async run(): Promise<RunAgentResponse> {
    if (this.props.resumeFrom !== undefined) {
      const resumed = await this.restore(this.props.resumeFrom);
      if (resumed) return resumed;
    } else if (this.props.childrenInteractiveParams) {
      const resumed = await this.resume();
      if (resumed) return resumed;
    }
    const maxTurns = this.props.maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const maxToolTurns = this.props.maxConsecutiveToolTurns ?? DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS;

    while (this.turn < maxTurns) {
      if (this.aborted()) return this.finish(this.abortReason());
      await this.maybeCompressContext();
      this.runTimes++;
      this.turn++;
      this.changes++;

      const snapshot = this.messages.slice();
      const forceAnswer = maxToolTurns > 0 && this.loopGuard.repeats >= maxToolTurns;
      const res = await createLLMResponse({
        client: this.client,
        abortSignal: this.signal,
        isAborted: this.props.isAborted,
        requestOptions: this.props.requestOptions,
        maxResponseBytes: this.props.maxResponseBytes,
        maxSseLineBytes: this.props.maxSseLineBytes,
        streamParser: this.props.streamParser,
        onStreaming: this.props.onStreaming,
        onReasoning: this.props.onReasoning,
        onToolCall: this.props.onToolCall,
        onToolParam: this.props.onToolParam,
        onHookError: this.props.onHookError,
        callIds: (this.callIds ??= callIdsIn(this.messages)),
        body: {
          ...this.body,
          messages: this.messages,
          ...(this.schemas
            ? { tools: this.schemas, tool_choice: forceAnswer ? 'none' : (this.body.tool_choice ?? 'auto') }
            : {}),
        },
      });

      this.finishReason = res.finish_reason;
      this.requestIds.push(res.requestId);
      if (this.props.onRequestEnd) this.reportRequestEnd(res);
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

      // The anti-loop guard counts turns that repeat the same calls; text or a new plan resets it.
      const signature = res.answerText ? '' : toolCallSignature(res.toolCalls);
      this.loopGuard = {
        signature,
        repeats: !signature ? 0 : signature === this.loopGuard.signature ? this.loopGuard.repeats + 1 : 1,
      };
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
    if (this.pending.length) return this.finish('interactive');
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
    const results = runnable.length ? await this.execute(runnable, snapshot) : [];
    let stop = false;
    let next = 0;
    for (let i = 0; i < calls.length; i++) {
      if (i >= cap) {
        const skipped: RunToolResult = { response: overCapText(calls[i], calls.length, cap), outcome: 'skipped' };
        this.observe(calls[i], skipped, 0);
        this.append(await this.settle(calls[i], skipped, calls.length));
        continue;
      }
      const approval = approvals[i];
      if (approval) {
        this.pending.push(approval);
        const placeholder = toolMessage(calls[i].id, AWAITING_APPROVAL_RESPONSE);
        this.append(placeholder);
        this.assistantMessages.push(placeholder);
        continue;
      }
      const result = results[next++];
      if (result.stop) stop = true;
      this.append(await this.settle(calls[i], result, calls.length));
    }
    return stop;
  }

  private execute(calls: ChatCompletionMessageToolCall[], snapshot: ChatCompletionMessageParam[]) {
    return runToolCalls({
      calls,
      messages: snapshot,
      tools: this.props.tools,
      signal: this.signal,
      concurrency: this.props.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY,
      defaultTimeoutMs: this.props.toolTimeoutMs,
      onAfterToolCall: this.props.onAfterToolCall,
      onHookError: this.props.onHookError,
      runId: this.runId,
      caller: this.caller,
      journal: this.props.journal,
      onJournalError: (error) => (this.journalError ??= { error }),
    });
  }

  /** Take a call's result into the run (a new pause, usages, tool-internal messages) and build its tool message. */
  private async settle(
    call: ChatCompletionMessageToolCall,
    result: ToolExecuteResult,
    callCount: number,
  ): Promise<ChatCompletionMessageParam> {
    if (result.interactive) {
      this.pending.push({ kind: 'interactive', call, interactive: result.interactive });
      this.interactiveResponse ??= pausedAt(result.interactive, call.id);
    }
    if (result.usages?.length) this.pushUsages(result.usages);
    // Several providers refuse an empty tool message: nothing to say is sent as 'none'.
    const fitted = await this.fitToolResponse(call, result.response, callCount);
    this.props[TOOL_SETTLED]?.(call.id, fitted);
    const message = toolMessage(call.id, fitted || 'none');
    this.assistantMessages.push(message, ...keepNonEmpty(result.assistantMessages));
    return message;
  }

  /** The response the model reads: shortened when over its share of the context, reported through `onToolCompress`. */
  private async fitToolResponse(
    call: ChatCompletionMessageToolCall,
    response: string,
    callCount: number,
  ): Promise<string> {
    const { compression, maxToolResponseTokens } = this.props;
    const budget = toolResponseBudget({
      compression,
      maxToolResponseTokens,
      historyTokens: this.historyTokens,
      callCount,
    });
    if (budget === undefined) return response;
    const shortened = await compressToolResponse({
      response,
      maxTokens: budget,
      client: compression ? this.client : undefined,
      model: compression?.model ?? this.model,
      abortSignal: this.signal,
    });
    if (!shortened) return response;
    if (shortened.usage) this.pushUsages([shortened.usage]);
    const { onToolCompress, onHookError } = this.props;
    if (onToolCompress) {
      const event = { call, response: shortened.response, originalResponse: response };
      callHook(
        onToolCompress,
        'onToolCompress',
        shortened.usage ? { ...event, usage: shortened.usage } : event,
        onHookError,
      );
    }
    return shortened.response;
  }

  private async maybeCompressContext(): Promise<void> {
    const compression = this.props.compression;
    if (!compression) return;
    const limit = historyLimit(compression);
    if (this.historyTokens <= limit) return;
    const model = compression.model ?? this.model;
    const compressed = await compressContext({
      messages: this.messages,
      client: this.client,
      model,
      keepTokens: Math.floor(limit * COMPRESSION_KEEP_SHARE),
      abortSignal: this.signal,
    });
    if (!compressed) return;
    this.messages = compressed.messages;
    this.historyTokens = compressed.event.afterTokens;
    this.pushUsages([compressed.usage]);
    const { onAfterCompressContext, onHookError } = this.props;
    if (onAfterCompressContext)
      callHook(onAfterCompressContext, 'onAfterCompressContext', compressed.event, onHookError);
  }

  /**
   * Take over a saved run state and answer its pending calls with `decisions`; returns the final response when
   * the run must not continue into the loop (an unreadable state, a call still undecided, a new pause, a stop).
   */
  private async restore(saved: RunState): Promise<RunAgentResponse | undefined> {
    try {
      assertRunState(saved);
    } catch (error) {
      this.unreadableState = saved;
      return this.finish('error', error);
    }
    this.runId = saved.runId;
    this.messages = saved.messages.slice();
    this.historyTokens = estimateMessagesTokens(this.messages);
    this.turn = saved.turn;
    this.priorUsage = { inputTokens: saved.usage?.inputTokens ?? 0, outputTokens: saved.usage?.outputTokens ?? 0 };
    this.loopGuard = { signature: saved.loopGuard?.signature ?? '', repeats: saved.loopGuard?.repeats ?? 0 };
    this.pending = saved.pending.slice();
    if (!this.hasCaller && 'caller' in saved) {
      this.hasCaller = true;
      this.caller = saved.caller;
    }
    // The saved state is already stored: until something changes, there is nothing to checkpoint.
    this.changes = 0;
    if (!this.pending.length) return undefined;
    const plan = planDecisions(this.pending, this.props.decisions, Boolean(this.props.handleInteractiveTool));
    if (!plan) {
      const first = this.pending.find((p) => p.kind === 'interactive');
      if (first?.kind === 'interactive') this.interactiveResponse = pausedAt(first.interactive, first.call.id);
      return this.finish('interactive');
    }
    const stop = await this.applyDecisions(plan);
    return this.afterTurn(stop);
  }

  /** Answer each pending call as decided, replacing its placeholder tool message in place; true on a `stop`. */
  private async applyDecisions(plan: DecidedCall[]): Promise<boolean> {
    const ids = new Set(this.pending.map((p) => p.call.id));
    const { assistantIndex, toolIndex } = locatePending(this.messages, ids);
    this.pending = [];
    this.changes++;
    const approved = plan.flatMap((p) => (p.action === 'run' ? [p.call] : []));
    const snapshot = assistantIndex >= 0 ? this.messages.slice(0, assistantIndex) : this.messages.slice();
    const results = approved.length ? await this.execute(approved, snapshot) : [];
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
            ? await this.handleInteractive(decided.pending)
            : { ...decided.result, outcome: decided.action === 'reject' ? 'rejected' : 'ok' };
        this.observe(call, result, performance.now() - started);
      }
      if (result.stop) stop = true;
      const message = await this.settle(call, result, plan.length);
      const at = toolIndex.get(call.id);
      if (at === undefined) {
        this.append(message);
      } else {
        this.historyTokens += estimateMessageTokens(message) - estimateMessageTokens(this.messages[at]);
        this.messages[at] = message;
      }
    }
    return stop;
  }

  /** The seed's resume handler, for a paused call the decisions leave unanswered. */
  private handleInteractive(pending: Extract<PendingCall, { kind: 'interactive' }>): Promise<RunToolResult> {
    return runInteractiveHandler(this.props.handleInteractiveTool!, {
      childrenResponse: pending.interactive,
      toolParams: { memoryRequestMessages: this.messages.slice(), toolCallId: pending.call.id },
    });
  }

  private reportRequestEnd(res: LLMResponse): void {
    const { requestId, usage, ms, firstChunkMs, finish_reason: finishReason, error } = res;
    try {
      this.props.onRequestEnd?.({
        requestId,
        model: this.model,
        usage,
        ms,
        ...(firstChunkMs !== undefined && { firstChunkMs }),
        finishReason,
        ...(error !== undefined && { error }),
      });
    } catch {
      // Hooks observe; a throwing one never ends the run.
    }
  }

  /** `onAfterToolCall` for a call answered without running (rejected or answered by a person). */
  private observe(call: ChatCompletionMessageToolCall, result: RunToolResult, durationMs: number): void {
    const { onAfterToolCall, onHookError } = this.props;
    if (!onAfterToolCall) return;
    const { response, outcome, error } = result;
    const event = { call, response, outcome, ...(error !== undefined ? { error } : {}), durationMs };
    callHook(onAfterToolCall, 'onAfterToolCall', event, onHookError);
  }

  /** Save the state when it changed since the last save; returns the failure that must end the run. */
  private async checkpoint(): Promise<{ error: unknown } | undefined> {
    const save = this.props.onCheckpoint;
    if (!save || this.changes === this.savedChanges) return undefined;
    this.savedChanges = this.changes;
    try {
      await save(this.state(true));
      return undefined;
    } catch (error) {
      return { error: error ?? new Error('onCheckpoint rejected') };
    }
  }

  /** The run state now; `copy` detaches it from the live history (for a checkpoint the run goes on after). */
  private state(copy: boolean): RunState {
    return {
      v: RUN_STATE_VERSION,
      runId: this.runId,
      messages: copy ? this.messages.slice() : this.messages,
      turn: this.turn,
      usage: {
        inputTokens: this.priorUsage.inputTokens + this.inputTokens,
        outputTokens: this.priorUsage.outputTokens + this.outputTokens,
      },
      loopGuard: { ...this.loopGuard },
      pending: this.pending.slice(),
      ...(this.hasCaller ? { caller: this.caller } : {}),
    };
  }

  /** Resume a paused tool; returns the final response when the run must not continue into the loop. */
  private async resume(): Promise<RunAgentResponse | undefined> {
    const params = this.props.childrenInteractiveParams!;
    const handle = this.props.handleInteractiveTool;
    const started = performance.now();
    const result: RunToolResult = handle
      ? await runInteractiveHandler(handle, params)
      : { response: '', outcome: 'ok' };
    const { messages, call } = restoreInteractiveHistory(params, result);
    this.messages = messages;
    this.historyTokens = estimateMessagesTokens(messages);
    if (call) this.observe(call, result, performance.now() - started);
    this.assistantMessages.push(...keepNonEmpty(result.assistantMessages));
    if (result.usages?.length) this.pushUsages(result.usages);
    if (result.interactive) {
      this.interactiveResponse = pausedAt(result.interactive, params.toolParams.toolCallId);
      if (call) this.pending.push({ kind: 'interactive', call, interactive: result.interactive });
      return this.finish('interactive');
    }
    if (result.stop) return this.finish('tool_stop');
    return undefined;
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
    return this.signal.aborted || Boolean(this.props.isAborted?.());
  }

  private async finish(stopReason: AgentStopReason, error?: unknown): Promise<RunAgentResponse> {
    if (this.interactiveResponse)
      this.interactiveResponse.params.toolParams.memoryRequestMessages = this.messages.slice();
    if (this.unreadableState === undefined) {
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

/** Names in order and their arguments, hashed: what makes two tool-only turns the same plan. */
function toolCallSignature(calls: readonly ChatCompletionMessageToolCall[]): string {
  const hash = createHash('sha256');
  for (const call of calls) hash.update(call.function.name).update('\0').update(call.function.arguments).update('\0');
  return hash.digest('hex').slice(0, 32);
}
