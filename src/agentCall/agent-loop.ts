import {
  COMPRESSION_KEEP_SHARE,
  DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS,
  DEFAULT_MAX_RUN_AGENT_TIMES,
  DEFAULT_TOOL_CONCURRENCY,
} from '../constants';
import { EmptyModelResponseError } from '../errors/empty-model-response.error';
import { resolveClient } from '../llm/client';
import { createLLMResponse } from '../llm/request';
import { estimateMessageTokens, estimateMessagesTokens } from '../llm/tokens';
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  UsageItem,
} from '../llm/type';
import type { ToolExecuteResult } from '../toolCall/type';
import { historyLimit, toolResponseBudget } from './budget';
import { UniqueCallIds } from './call-ids';
import { compressContext } from './compress-context';
import { compressToolResponse } from './compress-tool-response';
import { keepNonEmpty, pausedAt, restoreInteractiveHistory, runInteractiveHandler } from './resume-interactive';
import { runToolCalls } from './run-tool-calls';
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
  private readonly body: RunAgentCallProps['body'];
  private callIds?: UniqueCallIds;

  constructor(
    private readonly props: RunAgentCallProps,
    private readonly signal: AbortSignal,
    private readonly abortReason: () => AgentStopReason,
  ) {
    this.client = resolveClient(props.client, props.userKey);
    this.model = String(props.body.model);
    this.schemas = props.tools.length ? props.tools.map((t) => t.schema) : undefined;
    // `tools` is not part of the body's type, but a plain-JS caller may still pass it: the model must only see `tools`.
    const { tools: _ignored, ...body } = props.body as RunAgentCallProps['body'] & { tools?: unknown };
    this.body = body;
    this.messages = [...props.body.messages];
    this.historyTokens = estimateMessagesTokens(this.messages);
  }

  async run(): Promise<RunAgentResponse> {
    if (this.props.childrenInteractiveParams) {
      const resumed = await this.resume();
      if (resumed) return resumed;
    }
    const maxTurns = this.props.maxRunAgentTimes ?? DEFAULT_MAX_RUN_AGENT_TIMES;
    const maxToolTurns = this.props.maxConsecutiveToolTurns ?? DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS;
    let consecutiveToolTurns = 0;

    while (this.runTimes < maxTurns) {
      if (this.aborted()) return this.finish(this.abortReason());
      await this.maybeCompressContext();
      this.runTimes++;

      const snapshot = this.messages.slice();
      const forceAnswer = maxToolTurns > 0 && consecutiveToolTurns >= maxToolTurns;
      const res = await createLLMResponse({
        client: this.client,
        abortSignal: this.signal,
        isAborted: this.props.isAborted,
        requestOptions: this.props.requestOptions,
        onStreaming: this.props.onStreaming,
        onReasoning: this.props.onReasoning,
        onToolCall: this.props.onToolCall,
        onToolParam: this.props.onToolParam,
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
      this.inputTokens += res.usage.inputTokens;
      this.outputTokens += res.usage.outputTokens;
      this.pushUsages([{ moduleName: 'agent_call', model: this.model, ...res.usage }]);
      // Seeded once from the history the run started with (or resumed), then kept up to date.
      if (res.toolCalls.length) (this.callIds ??= new UniqueCallIds(this.messages)).claim(res.toolCalls);
      if (res.assistantMessage) {
        this.assistantMessages.push(res.assistantMessage);
        this.append(res.assistantMessage);
      }
      if (res.error !== undefined) return this.finish('error', res.error);
      if (res.finish_reason === 'close' || this.aborted()) return this.finish(this.abortReason());
      if (!res.toolCalls.length) {
        if (!res.answerText && !res.reasoningText) return this.finish('error', new EmptyModelResponseError());
        return this.finish('completed');
      }

      consecutiveToolTurns = res.answerText ? 0 : consecutiveToolTurns + 1;
      const stop = await this.runTools(res.toolCalls, snapshot);
      if (this.interactiveResponse) return this.finish('interactive');
      if (stop) return this.finish('tool_stop');
      if (this.aborted()) return this.finish(this.abortReason());
    }
    return this.finish('max_turns');
  }

  /** Run a turn's calls and append their tool messages in call order; true when a tool asked to stop. */
  private async runTools(
    calls: ChatCompletionMessageToolCall[],
    snapshot: ChatCompletionMessageParam[],
  ): Promise<boolean> {
    const results = await runToolCalls({
      calls,
      messages: snapshot,
      tools: this.props.tools,
      signal: this.signal,
      concurrency: this.props.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY,
      defaultTimeoutMs: this.props.toolTimeoutMs,
      caller: this.props.caller,
      onAfterToolCall: this.props.onAfterToolCall,
    });
    let stop = false;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const result = results[i];
      if (result.interactive) this.interactiveResponse = pausedAt(result.interactive, call.id);
      if (result.stop) stop = true;
      if (result.usages?.length) this.pushUsages(result.usages);
      const response = await this.fitToolResponse(call, result.response, calls.length);
      const toolMessage: ChatCompletionMessageParam = { role: 'tool', tool_call_id: call.id, content: response };
      this.append(toolMessage);
      this.assistantMessages.push(toolMessage, ...keepNonEmpty(result.assistantMessages));
    }
    return stop;
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
    this.props.onToolCompress?.({
      call,
      response: shortened.response,
      originalResponse: response,
      ...(shortened.usage ? { usage: shortened.usage } : {}),
    });
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
    this.props.onAfterCompressContext?.(compressed.event);
  }

  /** Resume a paused tool; returns the final response when the run must not continue into the loop. */
  private async resume(): Promise<RunAgentResponse | undefined> {
    const params = this.props.childrenInteractiveParams!;
    const handle = this.props.handleInteractiveTool;
    const result: ToolExecuteResult = handle ? await runInteractiveHandler(handle, params) : { response: '' };
    const { messages, call } = restoreInteractiveHistory(params, result);
    this.messages = messages;
    this.historyTokens = estimateMessagesTokens(messages);
    if (call) this.props.onAfterToolCall?.({ call, response: result.response });
    this.assistantMessages.push(...keepNonEmpty(result.assistantMessages));
    if (result.usages?.length) this.pushUsages(result.usages);
    if (result.interactive) {
      this.interactiveResponse = pausedAt(result.interactive, params.toolParams.toolCallId);
      return this.finish('interactive');
    }
    if (result.stop) return this.finish('tool_stop');
    return undefined;
  }

  private append(message: ChatCompletionMessageParam): void {
    this.messages.push(message);
    this.historyTokens += estimateMessageTokens(message);
  }

  private pushUsages(usages: UsageItem[]): void {
    this.usages.push(...usages);
    this.props.usagePush?.(usages);
  }

  private aborted(): boolean {
    return this.signal.aborted || Boolean(this.props.isAborted?.());
  }

  private finish(stopReason: AgentStopReason, error?: unknown): RunAgentResponse {
    if (this.interactiveResponse)
      this.interactiveResponse.params.toolParams.memoryRequestMessages = this.messages.slice();
    return {
      completeMessages: this.messages,
      assistantMessages: this.assistantMessages,
      ...(this.interactiveResponse ? { interactiveResponse: this.interactiveResponse } : {}),
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      usages: this.usages,
      finish_reason: this.finishReason,
      requestIds: this.requestIds,
      ...(error !== undefined ? { error } : {}),
      stopReason,
      runTimes: this.runTimes,
    };
  }
}
