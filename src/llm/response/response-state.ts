import type { ChatCompletionMessage } from 'openai/resources/chat/completions';
import { callHook } from '../../utils/call-hook';
import { createId } from '../../utils/id';
import { ThinkTagSplitter } from './think-tags';
import { callIdsIn } from './function-calls';
import { ToolCallAccumulator } from './tool-call-accumulator';
import { ContentLimit, type ContentKind } from './content-limit';
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_KEPT_ITEMS_CHARS } from '../../constants';
import { estimateMessagesTokens, estimateTokens } from '../tokens';
import { appendReasoningDetails, type ReasoningField } from './provider-fields';
import type { CreateLLMResponseProps, LLMResponse } from './response-types';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageToolCall,
  CompletionFinishReason,
  OutputItem,
  ReasoningItem,
} from '../type';

/**
 * What one model request accumulates: text, reasoning, tool calls, usage and finish reason, firing the hooks as
 * they arrive. It reads no wire's shape: each wire's reader (`wires/chat/`, `wires/responses/`) feeds it through its
 * methods, so both wires end in the same result. What it keeps is counted against `maxResponseBytes` before it is
 * kept: past it, the methods that add throw the `ResponseTooLargeError`, and the text kept so far stays.
 *
 * @internal
 */
export class ResponseState {
  requestId = '';
  startedAt = 0;
  private firstChunkAt?: number;
  answerText = '';
  reasoningText = '';
  /** The model's refusal (chat `refusal`, Responses `refusal` content), `''` when it did not refuse. */
  refusalText = '';
  finishReason: CompletionFinishReason = null;
  error: unknown;
  usage?: LLMResponse['usage'];
  /** The SDK's retries of the request (see `LLMResponse.retries`). */
  retries = 0;
  private readonly toolCalls: ToolCallAccumulator;
  private readonly think = new ThinkTagSplitter();
  private dropped?: { id?: string; type: string }[];
  /** The Responses wire's reasoning items, to go back on the assistant message. */
  private reasoningItems?: ReasoningItem[];
  /**
   * The Responses wire's other output items, in output order, each with the number of reasoning items that came
   * before it, so the assistant message keeps the order the model produced them in.
   */
  private outputItems?: { item: OutputItem; after: number }[];
  /** Characters of JSON kept in `reasoningItems` and `outputItems`, against `MAX_KEPT_ITEMS_CHARS`. */
  private keptChars = 0;
  /** Citations of the answer text. */
  private annotations?: ChatCompletionMessage.Annotation[];
  /** Reasoning that came in a field, by field, to go back on the assistant message the way it came. */
  private readonly reasoningFields = new Map<ReasoningField, string>();
  private reasoningDetails?: Record<string, unknown>[];
  private readonly content: ContentLimit;

  constructor(
    private readonly props: CreateLLMResponseProps,
    private readonly isStream: boolean,
  ) {
    this.content = new ContentLimit(props.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    this.toolCalls = new ToolCallAccumulator(
      props,
      props.callIds ?? (() => callIdsIn(props.body.messages)),
      this.content,
    );
  }

  /**
   * Grows whenever a chunk brought something useful: text, reasoning, a tool call or its arguments, the first
   * usage, the first finish reason. Empty chunks and repeats leave it as it is, so a reader refreshes its idle
   * timer only on progress, and a stream that sends nothing useful cannot outlive the timeout.
   */
  get progress(): number {
    return this.content.total + (this.finishReason ? 1 : 0) + (this.usage ? 1 : 0);
  }

  /** The stream ended normally: releases text the `<think>` splitter still holds. */
  endStream(): void {
    const rest = this.think.flush();
    if (rest.reasoning) this.addReasoning(rest.reasoning);
    if (rest.answer) this.addAnswer(rest.answer);
  }

  /**
   * A chunk or event arrived: notes the first one's time and polls `isAborted`. False when it said stop: the finish
   * reason is `'close'` and the reader must end the request.
   */
  arrived(): boolean {
    this.firstChunkAt ??= performance.now();
    if (this.props.isAborted?.()) {
      this.finishReason = 'close';
      return false;
    }
    return true;
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
    const hasMessage =
      this.answerText || this.reasoningText || this.refusalText || this.outputItems?.length || keptCalls.length;
    const assistantMessage: ChatCompletionAssistantMessageParam | undefined = hasMessage
      ? {
          role: 'assistant',
          content: this.answerText || (keptCalls.length ? null : ''),
          // A refusal stays in the history where the model said it, in the field OpenAI reads it from.
          ...(this.refusalText ? { refusal: this.refusalText } : {}),
          // Reasoning goes back in the fields it came in (DeepSeek answers 400 without its reasoning_content while
          // thinking; vLLM reads only `reasoning`); reasoning that came inline as <think> stays out, and no
          // field a provider never sent is added (Mistral refuses unknown fields).
          ...Object.fromEntries(this.reasoningFields),
          ...(this.reasoningDetails?.length ? { reasoning_details: this.reasoningDetails } : {}),
          ...this.keptItems(),
          ...(this.annotations?.length ? { annotations: this.annotations } : {}),
          ...(keptCalls.length ? { tool_calls: this.toolCalls.messageCalls(keptCalls) } : {}),
        }
      : undefined;
    return {
      requestId: this.requestId || createId(),
      isStreamResponse: this.isStream,
      answerText: this.answerText,
      reasoningText: this.reasoningText,
      ...(this.refusalText ? { refusal: this.refusalText } : {}),
      toolCalls,
      ...(this.dropped ? { droppedToolCalls: this.dropped } : {}),
      finish_reason,
      usage: this.usage ?? this.estimateUsage(toolCalls),
      assistantMessage,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ms: performance.now() - this.startedAt,
      ...(this.firstChunkAt !== undefined ? { firstChunkMs: this.firstChunkAt - this.startedAt } : {}),
      retries: this.retries,
    };
  }

  /** The provider's id of the response: the first one given is kept. */
  noteRequestId(id: string | undefined): void {
    if (!this.requestId && id) this.requestId = id;
  }

  /** The provider's usage numbers, when it sent any: the last ones given are kept. */
  noteUsage(usage: LLMResponse['usage'] | undefined): void {
    if (usage) this.usage = usage;
  }

  /** Why the model stopped, as the wire reports it. */
  noteFinish(reason: CompletionFinishReason): void {
    this.finishReason = reason;
  }

  /** Whether any tool call came in (a Responses reply with calls and no stated reason ends as `'tool_calls'`). */
  get hasToolCalls(): boolean {
    return this.toolCalls.size > 0;
  }

  /** Chat tool-call deltas, as they stream in or as a whole completion's calls. */
  pushToolCalls(deltas: Parameters<ToolCallAccumulator['push']>[0]): void {
    this.toolCalls.push(deltas);
  }

  /** A tool call the wire announces whole, its arguments (maybe none yet) with it; `custom` for a custom tool's. */
  openToolCall(
    providerId: string | undefined,
    name: string,
    args: string,
    custom = false,
  ): ChatCompletionMessageToolCall {
    return this.toolCalls.open(providerId, name, args, custom);
  }

  /** More of the arguments of a call opened with {@link openToolCall}. */
  appendToolCall(call: ChatCompletionMessageToolCall, argsDelta: string): void {
    this.toolCalls.append(call, argsDelta);
  }

  /** Reasoning that came in a provider's field: reasoning text, and kept to go back in that field. */
  addReasoningField(field: ReasoningField, text: string): void {
    this.addReasoning(text);
    this.reasoningFields.set(field, (this.reasoningFields.get(field) ?? '') + text);
  }

  /** OpenRouter's `reasoning_details`: kept whole, signatures and encrypted data included. */
  addReasoningDetails(details: Record<string, unknown>[]): void {
    // Counted as the JSON they came as.
    this.count('reasoning', JSON.stringify(details));
    appendReasoningDetails((this.reasoningDetails ??= []), details);
  }

  /** Counts what the response is about to keep; throws the size error past `maxResponseBytes`. */
  count(kind: ContentKind, text: string): void {
    const tooLarge = this.content.add(kind, text);
    if (tooLarge) throw tooLarge;
  }

  /** An output item or call agentcall will not run: left out of the answer, named in `droppedToolCalls`. */
  drop(dropped: { id?: string; type: string }): void {
    (this.dropped ??= []).push(dropped);
  }

  /** Answer text as it streams in: a leading `<think>…</think>` block goes to reasoning. */
  addContent(text: string): void {
    const { reasoning, answer } = this.think.push(text);
    if (reasoning) this.addReasoning(reasoning);
    if (answer) this.addAnswer(answer);
  }

  /** An output item kept whole, to go back as it came: counted as the JSON it came as. */
  keep(item: OutputItem): void {
    const json = JSON.stringify(item);
    this.count('answer', json);
    if (this.fits(json)) (this.outputItems ??= []).push({ item, after: this.reasoningItems?.length ?? 0 });
  }

  /** A reasoning item kept whole (encrypted reasoning goes back as it came): counted as the JSON it came as. */
  keepReasoning(item: ReasoningItem): void {
    const json = JSON.stringify(item);
    this.count('reasoning', json);
    if (this.fits(json)) (this.reasoningItems ??= []).push(item);
  }

  /**
   * Whether an item of this JSON still fits the reply's share of kept items: every kept item goes out again with each
   * later request, so past `MAX_KEPT_ITEMS_CHARS` an item is left out (the request stays valid without it: with
   * `store: false` nothing refers to it).
   */
  private fits(json: string): boolean {
    if (this.keptChars + json.length > MAX_KEPT_ITEMS_CHARS) return false;
    this.keptChars += json.length;
    return true;
  }

  /**
   * The kept items of the assistant message: `reasoning_items` alone, or, when other items came too, all of them in
   * output order as `output_items` (reasoning among them where the model produced it: OpenAI wants each reasoning
   * item back before the item that followed it).
   */
  private keptItems(): Pick<ChatCompletionAssistantMessageParam, 'reasoning_items' | 'output_items'> {
    const reasoning = this.reasoningItems ?? [];
    if (!this.outputItems) return reasoning.length ? { reasoning_items: reasoning } : {};
    const items: OutputItem[] = [];
    let next = 0;
    for (const { item, after } of this.outputItems) {
      while (next < after) items.push(reasoning[next++]);
      items.push(item);
    }
    while (next < reasoning.length) items.push(reasoning[next++]);
    return { output_items: items };
  }

  /** Citations of the answer in the chat shape: the `url_citation` ones are kept (nothing else in the list cites). */
  addAnnotations(annotations: unknown): void {
    if (!Array.isArray(annotations)) return;
    for (const annotation of annotations as unknown[]) {
      if (typeof annotation !== 'object' || annotation === null) continue;
      const { type, url_citation: citation } = annotation as { type?: unknown; url_citation?: unknown };
      if (type !== 'url_citation' || typeof citation !== 'object' || citation === null) continue;
      this.count('answer', JSON.stringify(citation));
      const kept = citation as ChatCompletionMessage.Annotation['url_citation'];
      (this.annotations ??= []).push({ type: 'url_citation', url_citation: kept });
    }
  }

  /** Refusal text as it arrives: counted like answer text, never streamed as the answer. */
  addRefusal(text: string): void {
    this.count('answer', text);
    this.refusalText += text;
  }

  addReasoning(text: string): void {
    this.count('reasoning', text);
    this.reasoningText += text;
    const { onReasoning } = this.props;
    if (onReasoning) callHook(onReasoning, 'onReasoning', { text }, this.props.onHookError);
  }

  /** Answer text already split from any `<think>` block (a whole completion's). */
  addAnswer(text: string): void {
    this.count('answer', text);
    this.answerText += text;
    const { onStreaming } = this.props;
    if (onStreaming) callHook(onStreaming, 'onStreaming', { text }, this.props.onHookError);
  }

  private estimateUsage(toolCalls: ChatCompletionMessageToolCall[]): LLMResponse['usage'] {
    if (this.error !== undefined && !this.answerText && !toolCalls.length) return { inputTokens: 0, outputTokens: 0 };
    let outputTokens =
      estimateTokens(this.answerText) + estimateTokens(this.reasoningText) + estimateTokens(this.refusalText);
    for (const call of toolCalls)
      outputTokens += estimateTokens(call.function.name) + estimateTokens(call.function.arguments);
    return { inputTokens: estimateMessagesTokens(this.props.body.messages), outputTokens };
  }
}
