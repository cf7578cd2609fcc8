import { DEFAULT_MAX_CONSECUTIVE_TOOL_TURNS, DEFAULT_MAX_RUN_AGENT_TIMES } from '../constants';
import { EmptyModelResponseError } from '../errors/empty-model-response.error';
import { resolveClient } from '../llm/client';
import { createLLMResponse } from '../llm/request';
import { estimateMessageTokens, estimateMessagesTokens } from '../llm/tokens';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool, UsageItem } from '../llm/type';
import { getErrText } from '../toolCall/errorText';
import type { ToolExecuteResult } from '../toolCall/type';
import { linkAbort } from '../utils/abort';
import { createId } from '../utils/id';
import { compressContext } from './compressContext';
import { compressToolResponse } from './compressToolResponse';
import { restoreInteractiveHistory } from './resumeInteractive';
import { runToolCalls } from './runToolCalls';
import type { AgentStopReason, RunAgentCallProps, RunAgentResponse, ToolCallChildrenInteractive } from './type';

/** How often `isAborted` is polled while a request or a tool is in flight. */
const ABORT_POLL_MS = 50;

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
  const deadline = props.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        run.controller.abort(new Error(`Run timed out after ${props.timeoutMs} ms`));
      }, props.timeoutMs)
    : undefined;
  const poll = props.isAborted
    ? setInterval(() => {
        if (props.isAborted?.()) run.controller.abort(new Error('Run aborted'));
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

class AgentLoop {
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
  /** Tool-call ids already in the history; see {@link AgentLoop.ensureUniqueCallIds}. */
  private callIds?: Set<string>;

  constructor(
    private readonly props: RunAgentCallProps,
    private readonly signal: AbortSignal,
    private readonly abortReason: () => AgentStopReason,
  ) {
    this.client = resolveClient(props.client, props.userKey);
    this.model = String(props.body.model);
    this.schemas = props.tools.length ? props.tools.map((t) => t.schema) : undefined;
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
      const { tools: _ignored, ...body } = this.props.body as typeof this.props.body & { tools?: unknown };
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
          ...body,
          messages: this.messages,
          ...(this.schemas ? { tools: this.schemas, tool_choice: forceAnswer ? 'none' : (body.tool_choice ?? 'auto') } : {}),
        },
      });

      this.finishReason = res.finish_reason;
      this.requestIds.push(res.requestId);
      this.inputTokens += res.usage.inputTokens;
      this.outputTokens += res.usage.outputTokens;
      this.pushUsages([{ moduleName: 'agent_call', model: this.model, ...res.usage }]);
      if (res.toolCalls.length) this.ensureUniqueCallIds(res.toolCalls);
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
  private async runTools(calls: Parameters<typeof runToolCalls>[0]['calls'], snapshot: ChatCompletionMessageParam[]): Promise<boolean> {
    const results = await runToolCalls({
      calls,
      messages: snapshot,
      tools: this.props.tools,
      signal: this.signal,
      concurrency: this.props.toolConcurrency ?? 1,
      defaultTimeoutMs: this.props.toolTimeoutMs,
      onAfterToolCall: this.props.onAfterToolCall,
    });
    let stop = false;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const result = results[i];
      if (result.interactive) {
        this.interactiveResponse = {
          type: 'toolChildrenInteractive',
          params: { childrenResponse: result.interactive, toolParams: { memoryRequestMessages: [], toolCallId: call.id } },
        };
      }
      if (result.stop) stop = true;
      if (result.usages?.length) this.pushUsages(result.usages);
      const response = await this.fitToolResponse(call, result.response, calls.length);
      const toolMessage: ChatCompletionMessageParam = { role: 'tool', tool_call_id: call.id, content: response };
      this.append(toolMessage);
      this.assistantMessages.push(toolMessage, ...nonEmpty(result.assistantMessages));
    }
    return stop;
  }

  private async fitToolResponse(call: Parameters<typeof runToolCalls>[0]['calls'][number], response: string, callCount: number): Promise<string> {
    const { compression, maxToolResponseTokens } = this.props;
    let budget = maxToolResponseTokens ?? Infinity;
    if (compression) {
      const free = compression.maxContext - this.historyTokens - this.reservedTokens();
      budget = Math.min(budget, Math.floor(compression.maxContext / 2), Math.max(64, Math.floor(free / callCount)));
    }
    if (budget === Infinity) return response;
    const shortened = await compressToolResponse({
      response,
      maxTokens: budget,
      client: compression ? this.client : undefined,
      model: compression?.model ?? this.model,
      abortSignal: this.signal,
    });
    if (!shortened) return response;
    if (shortened.usage) this.pushUsages([shortened.usage]);
    this.props.onToolCompress?.({ call, response: shortened.response, originalResponse: response, ...(shortened.usage ? { usage: shortened.usage } : {}) });
    return shortened.response;
  }

  private async maybeCompressContext(): Promise<void> {
    const compression = this.props.compression;
    if (!compression) return;
    const limit = (compression.maxContext - this.reservedTokens()) * (compression.threshold ?? 0.8);
    if (this.historyTokens <= limit) return;
    const model = compression.model ?? this.model;
    const compressed = await compressContext({
      messages: this.messages,
      client: this.client,
      model,
      keepTokens: Math.floor(limit / 4),
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
    const result: ToolExecuteResult = handle ? await safeResume(handle, params) : { response: '' };
    const { messages, call } = restoreInteractiveHistory(params, result);
    this.messages = messages;
    this.historyTokens = estimateMessagesTokens(messages);
    if (call) this.props.onAfterToolCall?.({ call, response: result.response });
    this.assistantMessages.push(...nonEmpty(result.assistantMessages));
    if (result.usages?.length) this.pushUsages(result.usages);
    if (result.interactive) {
      this.interactiveResponse = {
        type: 'toolChildrenInteractive',
        params: { childrenResponse: result.interactive, toolParams: { memoryRequestMessages: [], toolCallId: params.toolParams.toolCallId } },
      };
      return this.finish('interactive');
    }
    if (result.stop) return this.finish('tool_stop');
    return undefined;
  }

  /**
   * Give a call whose id is already in the history (reused from an earlier turn or from the caller's messages) a
   * fresh one before it enters the history: strict providers (Mistral, MiniMax) refuse a repeated id anywhere in
   * it. Repeats inside one turn are already made unique by the accumulator.
   */
  private ensureUniqueCallIds(calls: ChatCompletionMessageToolCall[]): void {
    // Seeded once from the history the run started with (or resumed), then kept up to date: no per-turn re-walk.
    this.callIds ??= new Set(this.messages.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : [])));
    for (const call of calls) {
      while (this.callIds.has(call.id)) call.id = `call_${createId(12)}`;
      this.callIds.add(call.id);
    }
  }

  private append(message: ChatCompletionMessageParam): void {
    this.messages.push(message);
    this.historyTokens += estimateMessageTokens(message);
  }

  private pushUsages(usages: UsageItem[]): void {
    this.usages.push(...usages);
    this.props.usagePush?.(usages);
  }

  private reservedTokens(): number {
    const compression = this.props.compression!;
    return compression.reservedTokens ?? Math.min(8000, Math.floor(compression.maxContext / 4));
  }

  private aborted(): boolean {
    return this.signal.aborted || Boolean(this.props.isAborted?.());
  }

  private finish(stopReason: AgentStopReason, error?: unknown): RunAgentResponse {
    if (this.interactiveResponse) this.interactiveResponse.params.toolParams.memoryRequestMessages = this.messages.slice();
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

async function safeResume(
  handle: NonNullable<RunAgentCallProps['handleInteractiveTool']>,
  params: Parameters<typeof handle>[0],
): Promise<ToolExecuteResult> {
  try {
    return await handle(params);
  } catch (error) {
    return { response: `Tool error: ${getErrText(error)}` };
  }
}

/** Tool-internal messages worth keeping: empty assistant texts are noise. */
function nonEmpty(messages: ChatCompletionMessageParam[] | undefined): ChatCompletionMessageParam[] {
  if (!messages?.length) return [];
  return messages.filter((m) => m.role !== 'assistant' || Boolean(m.content) || Boolean(m.tool_calls?.length));
}
