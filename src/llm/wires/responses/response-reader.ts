import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { MalformedResponseError } from '../../../errors/malformed-response.error';
import { toModelText } from '../../../text/model-text';
import type { LeanStreamOptions } from '../../stream/lean-stream';
import type { ResponseState } from '../../response/response-state';
import type { ChatCompletionMessageToolCall, CompletionFinishReason, OutputItem, ReasoningItem } from '../../type';
import { readResponsesUsage } from '../../response/usage';

/** The client's `APIError` class: `response.failed` and `error` events become one, as in-band chat errors do. */
export type APIErrorClass = NonNullable<LeanStreamOptions['apiError']>;

/** The fields of an output item or event the reader looks at; everything else in them is ignored. */
type Item = {
  type?: unknown;
  id?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  /** A `custom_tool_call`'s raw input. */
  input?: unknown;
  content?: unknown;
  summary?: unknown;
  encrypted_content?: unknown;
};
type Body = {
  id?: unknown;
  status?: unknown;
  output?: unknown;
  usage?: unknown;
  error?: unknown;
  incomplete_details?: unknown;
};

/**
 * Reads the Responses wire into a {@link ResponseState}: stream events through {@link receive}, a whole response
 * through {@link consume}. Text deltas become answer text, reasoning summary and text deltas reasoning, each
 * `function_call` or `custom_tool_call` item one tool call (its id settled when it is first seen, by the chat wire's
 * rules; a custom call's input streams like arguments), reasoning items are kept for the assistant message, and so is
 * any other item type (a hosted tool's call, a compaction, one not known yet), whole and in output order. A stream is
 * whole only once a `response.completed`, `response.incomplete` or `response.failed` arrived.
 *
 * @internal
 */
export class ResponsesReader {
  /** The tool call of each `function_call` or `custom_tool_call` item, by output index. */
  private readonly calls: (ChatCompletionMessageToolCall | undefined)[] = [];
  private lastCall?: ChatCompletionMessageToolCall;
  /** Output indexes whose item was already kept, dropped or read whole (a `done` item and the final output repeat). */
  private settled?: Set<number>;
  /** Output indexes whose text streamed in deltas (-1: a delta without an index). */
  private streamedText?: Set<number>;
  /** Output indexes whose reasoning (summary or text) streamed in deltas (-1: a delta without an index). */
  private streamedReasoning?: Set<number>;
  /** Output indexes whose refusal streamed in deltas (-1: a delta without an index). */
  private streamedRefusal?: Set<number>;
  /** The tool call of each item (by its item id, else its call id), and the ids of dropped items: a server that
   * sends no output indexes must not get an item twice from its `done` event and the final output. Two items
   * with their own ids are two calls even when the model gave both one call id. The ids of kept and dropped items
   * likewise. */
  private callsById?: Map<string, ChatCompletionMessageToolCall>;
  /** Ids of the reasoning items kept: a set, where a scan of the kept items made a response quadratic. */
  private reasoningIds?: Set<string>;
  private settledIds?: Set<string>;
  private lastTextIndex = -2;
  private ended = false;

  constructor(
    private readonly state: ResponseState,
    private readonly apiError: APIErrorClass,
    private readonly headers?: Headers,
  ) {}

  /** What the response kept so far, as the state counts it: the idle timer is refreshed only when it grows. */
  get progress(): number {
    return this.state.progress;
  }

  /** One parsed stream event; false when `isAborted` said stop. */
  receive(event: ResponseStreamEvent): boolean {
    const state = this.state;
    if (!state.arrived()) return false;
    if (this.ended) return true;
    switch (event.type) {
      case 'response.output_text.delta': {
        const index = typeof event.output_index === 'number' ? event.output_index : -1;
        if (index !== this.lastTextIndex) {
          this.lastTextIndex = index;
          (this.streamedText ??= new Set()).add(index);
        }
        if (event.delta) state.addContent(event.delta);
        break;
      }
      case 'response.refusal.delta': {
        (this.streamedRefusal ??= new Set()).add(typeof event.output_index === 'number' ? event.output_index : -1);
        if (event.delta) state.addRefusal(event.delta);
        break;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        // A server that leaves out the index means the call it opened last; an index not opened yet is read whole
        // from its `done` item or the final output.
        const index: unknown = event.output_index;
        const call = typeof index === 'number' ? this.calls[index] : this.lastCall;
        if (call && event.delta) state.appendToolCall(call, event.delta);
        break;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        (this.streamedReasoning ??= new Set()).add(typeof event.output_index === 'number' ? event.output_index : -1);
        if (event.delta) state.addReasoning(event.delta);
        break;
      case 'response.output_item.added':
        this.added(event.output_index, event.item);
        break;
      case 'response.output_item.done':
        this.done(event.output_index, event.item);
        break;
      case 'response.created':
      case 'response.in_progress':
        this.readId(event.response);
        break;
      case 'response.completed':
        this.end(event.response, undefined);
        break;
      case 'response.incomplete':
        this.end(event.response, incompleteReason(event.response));
        break;
      case 'response.failed':
        this.end(event.response, 'error');
        throw this.failure(event.response);
      case 'error':
        this.ended = true;
        throw new this.apiError(undefined, event, undefined, this.headers as Headers);
    }
    return true;
  }

  /** The stream ended: text the `<think>` splitter holds is released; without a last event it was cut. */
  endStream(): void {
    this.state.endStream();
    if (!this.ended)
      throw new MalformedResponseError('the Responses stream ended before response.completed (it was cut)');
  }

  /** A whole (non-streamed) response. */
  consume(whole: unknown): void {
    const body = whole as Body | null;
    if (typeof body !== 'object' || body === null || !Array.isArray(body.output))
      throw new MalformedResponseError('the body is not a Responses API response (no output list)');
    const status = body.status;
    if (status === 'failed' || status === 'cancelled') {
      this.end(body, 'error');
      throw this.failure(body);
    }
    if (status !== 'completed' && status !== 'incomplete' && status !== undefined && status !== null)
      throw new MalformedResponseError(`the response is not finished (status ${JSON.stringify(status)})`);
    this.end(body, status === 'incomplete' ? incompleteReason(body) : undefined);
    this.state.endStream();
  }

  /** A new output item: a function or custom tool call opens its tool call now (before its arguments or input). */
  private added(index: number, item: Item): void {
    switch (item.type) {
      case 'function_call':
        // Arguments on the opening item are not counted: the deltas bring them all (vLLM sends its first delta on
        // the opening item and again as a delta), and a call that gets no delta has them on its `done` item.
        this.openCall(index, item, false);
        break;
      case 'custom_tool_call':
        this.openCall(index, item, false);
        break;
      default:
        // Any other item is kept whole from its `done` event or the final output, once it is complete.
        break;
    }
  }

  /** A whole output item (a `done` event, or one of the final output): fills in what its deltas did not bring. */
  private done(index: number, item: Item): void {
    switch (item.type) {
      case 'function_call':
      case 'custom_tool_call': {
        const call = this.calls[index];
        if (!call) {
          this.openCall(index, item, true);
        } else {
          if (!call.function.name && typeof item.name === 'string') call.function.name = item.name;
          const args = argumentsOf(item.type === 'custom_tool_call' ? item.input : item.arguments);
          if (!call.function.arguments && args) this.state.appendToolCall(call, args);
        }
        break;
      }
      case 'reasoning': {
        const id = typeof item.id === 'string' ? item.id : undefined;
        if (!this.settle(index) || (id !== undefined && this.reasoningIds?.has(id))) break;
        if (id !== undefined) (this.reasoningIds ??= new Set()).add(id);
        const reasoning = keptReasoning(item);
        // A summary that came whole (a response not streamed, or a server that streams no summary deltas) reaches
        // `onReasoning` once, whole, as streamed deltas would have.
        if (!this.streamedReasoning?.has(index) && !this.streamedReasoning?.has(-1)) {
          const text = readableReasoning(reasoning);
          if (text) this.state.addReasoning(text);
        }
        // Encrypted reasoning is kept and sent back whole: it counts against the response's cap like any text.
        this.state.keepReasoning(reasoning);
        break;
      }
      case 'message': {
        // A server that sends a message whole, without deltas: its text is the answer, its refusal the refusal.
        if (!this.settle(index)) break;
        if (!this.streamedText?.has(index) && !this.streamedText?.has(-1)) {
          const text = messageParts(item.content, 'output_text', 'text');
          if (text) this.state.addContent(text);
        }
        if (!this.streamedRefusal?.has(index) && !this.streamedRefusal?.has(-1)) {
          const refusal = messageParts(item.content, 'refusal', 'refusal');
          if (refusal) this.state.addRefusal(refusal);
        }
        this.state.addAnnotations(chatCitations(item.content));
        break;
      }
      default:
        this.keep(index, item);
    }
  }

  private openCall(index: number, item: Item, withArguments: boolean): void {
    if (this.calls[index]) return;
    const callId = typeof item.call_id === 'string' && item.call_id ? item.call_id : undefined;
    const key = typeof item.id === 'string' && item.id ? `item ${item.id}` : callId && `call ${callId}`;
    const known = key === undefined ? undefined : this.callsById?.get(key);
    if (known) {
      this.calls[index] = known;
      return;
    }
    const name = typeof item.name === 'string' ? item.name : '';
    const custom = item.type === 'custom_tool_call';
    const args = withArguments ? argumentsOf(custom ? item.input : item.arguments) : '';
    const call = this.state.openToolCall(callId, name, args, custom);
    this.calls[index] = call;
    this.lastCall = call;
    if (key !== undefined) (this.callsById ??= new Map()).set(key, call);
  }

  /**
   * An output item that is neither a message, reasoning nor a function call (a hosted tool's call, a compaction, an
   * echoed output, a type not known yet): kept whole for the assistant message, once (by index, and by id for a
   * server that sends no indexes).
   */
  private keep(index: number, item: Item): void {
    if (!this.firstSight(index, item)) return;
    const type = typeof item.type === 'string' ? item.type : 'unknown';
    this.state.keep({ ...item, type } as OutputItem);
  }

  /** True the first time an item is seen whole, by its index and by its id. */
  private firstSight(index: number, item: Item): boolean {
    if (!this.settle(index)) return false;
    if (typeof item.id !== 'string') return true;
    if (this.settledIds?.has(item.id)) return false;
    (this.settledIds ??= new Set()).add(item.id);
    return true;
  }

  /** True the first time `index` is settled. */
  private settle(index: number): boolean {
    const settled = (this.settled ??= new Set());
    if (settled.has(index)) return false;
    settled.add(index);
    return true;
  }

  private readId(body: Body | undefined): void {
    if (typeof body?.id === 'string') this.state.noteRequestId(body.id);
  }

  /** A last event or whole response: its id, usage and final output; the finish reason by what it holds. */
  private end(body: Body | undefined, reason: CompletionFinishReason | undefined): void {
    this.ended = true;
    this.readId(body);
    const usage = readResponsesUsage(body?.usage);
    this.state.noteUsage(usage);
    const output = body?.output;
    if (Array.isArray(output))
      for (let i = 0; i < output.length; i++) {
        const item = output[i] as Item | null;
        if (typeof item !== 'object' || item === null) continue;
        this.added(i, item);
        this.done(i, item);
      }
    this.state.noteFinish(reason ?? (this.state.hasToolCalls ? 'tool_calls' : 'stop'));
  }

  private failure(body: Body | undefined): Error {
    const error = body?.error;
    const cause = typeof error === 'object' && error !== null ? error : { message: 'The model response failed' };
    return new this.apiError(undefined, cause, undefined, this.headers as Headers);
  }
}

/**
 * Why an incomplete response stopped, as chat says it: `content_filter` when its filter cut it, `length` otherwise
 * (the output token limit), so a finish reason means the same on both wires.
 */
function incompleteReason(body: Body | undefined): CompletionFinishReason {
  const details = body?.incomplete_details as { reason?: unknown } | null | undefined;
  return details?.reason === 'content_filter' ? 'content_filter' : 'length';
}

/** A reasoning item as it goes back: its type, id, summary, `encrypted_content` and `content` as received. */
function keptReasoning(item: Item): ReasoningItem {
  const kept: ReasoningItem = {
    type: 'reasoning',
    ...(typeof item.id === 'string' && { id: item.id }),
    summary: Array.isArray(item.summary) ? (item.summary as ReasoningItem['summary']) : [],
  };
  if (item.encrypted_content !== undefined) kept.encrypted_content = item.encrypted_content as string | null;
  if (Array.isArray(item.content)) kept.content = item.content as ReasoningItem['content'];
  return kept;
}

/**
 * The text a reasoning item shows: its summary parts, else its reasoning text (Open Responses servers), joined as
 * their deltas would have streamed.
 */
function readableReasoning(item: ReasoningItem): string {
  const parts: unknown[] = item.summary.length ? item.summary : (item.content ?? []);
  let text = '';
  for (const part of parts as { text?: unknown }[]) if (typeof part?.text === 'string') text += part.text;
  return text;
}

/** The `type` parts of a message item, their `field` text joined (`output_text` parts' text, `refusal` parts' refusal). */
function messageParts(content: unknown, type: string, field: 'text' | 'refusal'): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as Record<string, unknown>[]) {
    const value = part?.[field];
    if (part?.type === type && typeof value === 'string') text += value;
  }
  return text;
}

/** The `url_citation` annotations of a message's `output_text` parts, in the chat shape. */
function chatCitations(content: unknown): unknown[] {
  if (!Array.isArray(content)) return [];
  const citations: unknown[] = [];
  for (const part of content as { type?: unknown; annotations?: unknown }[]) {
    if (part?.type !== 'output_text' || !Array.isArray(part.annotations)) continue;
    for (const annotation of part.annotations as Record<string, unknown>[]) {
      if (annotation?.type !== 'url_citation') continue;
      const { type, ...citation } = annotation;
      citations.push({ type, url_citation: citation });
    }
  }
  return citations;
}

/** Arguments as JSON text: some servers send an object. */
function argumentsOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : toModelText(value);
}
