import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { StreamIdleTimeoutError } from '../errors/stream-idle-timeout.error';
import { linkAbort } from '../utils/abort';
import { callHook } from '../utils/call-hook';
import { toModelText } from '../toolCall/model-text';
import { createId } from '../utils/id';
import { resolveClient, type LLMClient, type UserKey } from './client';
import { ThinkTagSplitter, splitThinkTags } from './think-tags';
import { callIdsIn, describeDropped, isFunctionCall } from './function-calls';
import { ToolCallAccumulator, type ToolCallStreamEvents } from './tool-call-accumulator';
import { estimateMessagesTokens, estimateTokens } from './tokens';
import { readUsage } from './usage';
import { withResponseLimits } from './limit-response';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_SSE_LINE_BYTES } from '../constants';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  CompletionFinishReason,
} from './type';

/** Streaming hooks of one model request. */
export type ResponseEvents = ToolCallStreamEvents & {
  /** Each visible answer delta (the whole text once for a non-streamed response). */
  onStreaming?: (e: { text: string }) => void;
  /** Each reasoning delta: `reasoning_content`, or a leading `<think>…</think>` block. */
  onReasoning?: (e: { text: string }) => void;
};

/** A chat-completions body as agentcall sends it: `stream` is a plain flag, `stream_options` is set for you. */
export type LLMRequestBody = Omit<ChatCompletionCreateParamsBase, 'messages' | 'stream' | 'stream_options'> & {
  messages: ChatCompletionMessageParam[];
  /** Stream the answer (default `true`). */
  stream?: boolean;
};

/** Arguments of {@link createLLMResponse}. */
export type CreateLLMResponseProps = ResponseEvents & {
  body: LLMRequestBody;
  /** An openai SDK client (`new OpenAI(...)`, openai 6 or 7); without it one is built from `userKey` or the environment. */
  client?: LLMClient;
  userKey?: UserKey;
  /** Polled on every chunk: return true to stop the stream (`finish_reason: 'close'`). */
  isAborted?: () => boolean | undefined | null;
  /** Aborting it cancels the request (`finish_reason: 'close'`). */
  abortSignal?: AbortSignal;
  /**
   * Per-request SDK options. `timeout` (ms) bounds the wait for the response headers (the SDK's own
   * timeout) and, for a stream, every silence between two chunks: the SDK alone would wait forever on a
   * stream that stalls after its headers.
   */
  requestOptions?: { timeout?: number; headers?: Record<string, string> };
  /**
   * Tool-call ids already in use. A call whose id is among them (or repeats one of this response) gets a fresh
   * id when it is first seen, before any hook; every id the response uses is added. Default: the ids of the
   * tool calls in `body.messages`.
   */
  callIds?: Set<string>;
  /** Most bytes the response may have (default `DEFAULT_MAX_RESPONSE_BYTES`, 16 MiB); past it, `ResponseTooLargeError`. */
  maxResponseBytes?: number;
  /** Longest SSE line (one event) the response may send (default `DEFAULT_MAX_SSE_LINE_BYTES`, 2 MiB). */
  maxSseLineBytes?: number;
};

/** What one model request produced. Failures come back in `error`, never as a throw. */
export type LLMResponse = {
  /** The provider's completion id, or a generated one. */
  requestId: string;
  isStreamResponse: boolean;
  answerText: string;
  reasoningText: string;
  /** Every function call the model made, unknown names included; empty arguments are `'{}'`. */
  toolCalls: ChatCompletionMessageToolCall[];
  /**
   * Tool calls of a type agentcall cannot run (anything but `function`; a call with a `function` and no
   * `type` counts as a function call), left out of `toolCalls` and of the assistant message.
   */
  droppedToolCalls?: { id?: string; type: string }[];
  finish_reason: CompletionFinishReason;
  /** The provider's numbers, or an estimate when it reports none. */
  usage: { inputTokens: number; outputTokens: number };
  /**
   * The message to append to the history. After an error or abort it keeps the partial text but no tool
   * calls, since those calls were never completed and would leave the history without their tool messages.
   */
  assistantMessage?: ChatCompletionAssistantMessageParam;
  /** The request error (HTTP status, broken stream, timeout), with whatever arrived before it kept above. */
  error?: unknown;
  /** Milliseconds from sending the request to its end. */
  ms: number;
  /** Milliseconds from sending the request to the first streamed chunk (absent when none arrived). */
  firstChunkMs?: number;
};

/**
 * One chat-completions request over the openai SDK, streamed or not, with hooks for text, reasoning,
 * tool calls and argument fragments.
 *
 * @example
 * const res = await createLLMResponse({ client, body: { model: 'gpt-4o-mini', messages, tools }, onStreaming: ({ text }) => process.stdout.write(text) });
 */
export async function createLLMResponse(props: CreateLLMResponseProps): Promise<LLMResponse> {
  const { body, isAborted, abortSignal, requestOptions } = props;
  const stream = body.stream ?? true;
  const state = new ResponseState(props, stream);
  const { controller, dispose } = linkAbort(abortSignal);
  state.startedAt = performance.now();
  try {
    if (isAborted?.() || controller.signal.aborted) return state.close();
    const client = withResponseLimits(resolveClient(props.client, props.userKey), {
      maxResponseBytes: props.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxLineBytes: props.maxSseLineBytes ?? DEFAULT_MAX_SSE_LINE_BYTES,
    });
    const request = stream
      ? { ...body, stream: true as const, stream_options: { include_usage: true } }
      : { ...body, stream: false as const };
    const response = await client.chat.completions.create(request, { ...requestOptions, signal: controller.signal });
    if (stream)
      await state.consumeStream(response as AsyncIterable<ChatCompletionChunk>, controller, requestOptions?.timeout);
    else state.consumeCompletion(response as ChatCompletion);
  } catch (error) {
    state.error = error ?? new Error('Request failed');
  } finally {
    dispose();
  }
  // An abort may surface as a throw or, mid-stream, as a quiet end of the SDK's iterator: judge it by the signal.
  const reason: unknown = controller.signal.reason;
  if (reason instanceof StreamIdleTimeoutError) state.error = reason;
  else if (controller.signal.aborted || (state.error !== undefined && isAborted?.())) {
    state.error = undefined;
    state.finishReason = 'close';
  }
  return state.result();
}

class ResponseState {
  requestId = '';
  startedAt = 0;
  private firstChunkAt?: number;
  answerText = '';
  reasoningText = '';
  finishReason: CompletionFinishReason = null;
  error: unknown;
  private usage?: { inputTokens: number; outputTokens: number };
  private readonly toolCalls: ToolCallAccumulator;
  private readonly think = new ThinkTagSplitter();
  private dropped?: { id?: string; type: string }[];

  constructor(
    private readonly props: CreateLLMResponseProps,
    private readonly isStream: boolean,
  ) {
    this.toolCalls = new ToolCallAccumulator(props, props.callIds ?? (() => callIdsIn(props.body.messages)));
  }

  async consumeStream(
    stream: AsyncIterable<ChatCompletionChunk>,
    controller: AbortController,
    idleTimeoutMs?: number,
  ): Promise<void> {
    const idle =
      idleTimeoutMs && idleTimeoutMs > 0
        ? setTimeout(() => controller.abort(new StreamIdleTimeoutError(idleTimeoutMs)), idleTimeoutMs)
        : undefined;
    try {
      await this.readChunks(stream, controller, idle);
    } finally {
      clearTimeout(idle);
    }
  }

  private async readChunks(
    stream: AsyncIterable<ChatCompletionChunk>,
    controller: AbortController,
    idle: NodeJS.Timeout | undefined,
  ): Promise<void> {
    const { isAborted } = this.props;
    for await (const chunk of stream) {
      idle?.refresh();
      this.firstChunkAt ??= performance.now();
      if (isAborted?.()) {
        controller.abort();
        this.finishReason = 'close';
        return;
      }
      if (!this.requestId && chunk.id) this.requestId = chunk.id;
      if (chunk.usage) this.usage = readUsage(chunk.usage) ?? this.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta as ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };
      if (delta) {
        if (delta.reasoning_content) this.addReasoning(delta.reasoning_content);
        if (delta.content) {
          const { reasoning, answer } = this.think.push(delta.content);
          if (reasoning) this.addReasoning(reasoning);
          if (answer) this.addAnswer(answer);
        }
        if (delta.tool_calls) this.toolCalls.push(delta.tool_calls);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    const rest = this.think.flush();
    if (rest.reasoning) this.addReasoning(rest.reasoning);
    if (rest.answer) this.addAnswer(rest.answer);
  }

  consumeCompletion(completion: ChatCompletion): void {
    this.requestId = completion.id ?? '';
    if (completion.usage) this.usage = readUsage(completion.usage);
    const choice = completion.choices?.[0];
    if (!choice) return;
    const message = choice.message as ChatCompletion.Choice['message'] & { reasoning_content?: string | null };
    const { reasoning, answer } = splitThinkTags(message.content ?? '');
    if (message.reasoning_content) this.addReasoning(message.reasoning_content);
    if (reasoning) this.addReasoning(reasoning);
    if (answer) this.addAnswer(answer);
    // Some OpenAI-compatible servers leave out `type`: a call with a `function` is a function call all the same.
    const calls: ChatCompletionMessageToolCall[] = [];
    for (const call of (message.tool_calls ?? []) as unknown[]) {
      if (isFunctionCall(call)) calls.push(call);
      else (this.dropped ??= []).push(describeDropped(call));
    }
    calls.forEach((call, index) =>
      this.toolCalls.push([
        {
          index,
          id: call.id,
          type: 'function',
          // Some OpenAI-compatible servers send non-streamed arguments as an object instead of JSON text.
          function: { name: call.function.name, arguments: toModelText(call.function.arguments) },
        },
      ]),
    );
    this.finishReason = choice.finish_reason;
  }

  close(): LLMResponse {
    this.finishReason = 'close';
    return this.result();
  }

  result(): LLMResponse {
    const toolCalls = this.toolCalls.finish();
    const failed = this.error !== undefined || this.finishReason === 'close';
    const finish_reason: CompletionFinishReason = this.error !== undefined ? 'error' : this.finishReason;
    const keptCalls = failed ? [] : toolCalls;
    const hasMessage = this.answerText || this.reasoningText || keptCalls.length;
    const assistantMessage: ChatCompletionAssistantMessageParam | undefined = hasMessage
      ? {
          role: 'assistant',
          content: this.answerText || (keptCalls.length ? null : ''),
          ...(this.reasoningText ? { reasoning_content: this.reasoningText } : {}),
          ...(keptCalls.length ? { tool_calls: keptCalls } : {}),
        }
      : undefined;
    return {
      requestId: this.requestId || createId(),
      isStreamResponse: this.isStream,
      answerText: this.answerText,
      reasoningText: this.reasoningText,
      toolCalls,
      ...(this.dropped ? { droppedToolCalls: this.dropped } : {}),
      finish_reason,
      usage: this.usage ?? this.estimateUsage(toolCalls),
      assistantMessage,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ms: performance.now() - this.startedAt,
      ...(this.firstChunkAt !== undefined ? { firstChunkMs: this.firstChunkAt - this.startedAt } : {}),
    };
  }

  private addReasoning(text: string): void {
    this.reasoningText += text;
    const { onReasoning } = this.props;
    if (onReasoning) callHook(onReasoning, 'onReasoning', { text }, this.props.onHookError);
  }

  private addAnswer(text: string): void {
    this.answerText += text;
    const { onStreaming } = this.props;
    if (onStreaming) callHook(onStreaming, 'onStreaming', { text }, this.props.onHookError);
  }

  private estimateUsage(toolCalls: ChatCompletionMessageToolCall[]): { inputTokens: number; outputTokens: number } {
    if (this.error !== undefined && !this.answerText && !toolCalls.length) return { inputTokens: 0, outputTokens: 0 };
    let outputTokens = estimateTokens(this.answerText) + estimateTokens(this.reasoningText);
    for (const call of toolCalls)
      outputTokens += estimateTokens(call.function.name) + estimateTokens(call.function.arguments);
    return { inputTokens: estimateMessagesTokens(this.props.body.messages), outputTokens };
  }
}
