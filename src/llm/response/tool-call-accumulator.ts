import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { callHook } from '../../utils/call-hook';
import { createId } from '../../utils/id';
import { toModelText } from '../../text/model-text';
import type { ContentLimit, ContentKind } from './content-limit';
import { keepToolCallFields } from './provider-fields';
import type { ChatCompletionMessageCustomToolCall, ChatCompletionMessageToolCall } from '../type';
import type { ResponseEvents } from './response-types';

/**
 * Generated ids are 9 letters and digits: Mistral accepts nothing else (`^[a-zA-Z0-9]{9}$`), and every other
 * provider in the wire corpus takes any short string.
 */
const GENERATED_ID_LENGTH = 9;

/**
 * A streamed tool-call delta: a function call's, or a custom tool call's (`type: 'custom'`, `custom: { name, input }`,
 * its input streamed in pieces), which the SDK's chunk type does not list yet.
 */
type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall | CustomToolCallDelta;
type CustomToolCallDelta = Omit<ChatCompletionChunk.Choice.Delta.ToolCall, 'type'> & {
  type?: 'custom';
  custom?: { name?: string; input?: unknown };
};

/** A tool call as the assistant message keeps it: a function call, or a custom tool call in its own shape. */
export type MessageToolCall = ChatCompletionMessageToolCall | ChatCompletionMessageCustomToolCall;

/**
 * Assembles streamed tool-call deltas by `index` into whole calls, firing the hooks as calls and
 * argument fragments arrive. Names the model made up are kept, so each gets an answer later.
 *
 * Ids are settled when a call is first seen, before any hook: a call without an id, or with one already
 * taken (in `takenIds`, the history's, or by an earlier call of this response), gets a fresh id of 9 letters and
 * digits. Fields a provider adds to a call (Gemini's `extra_content`) are kept on it and go back with it.
 */
export class ToolCallAccumulator {
  private readonly calls: ChatCompletionMessageToolCall[] = [];
  /**
   * The calls that are custom tool calls. The loop reads every call in the function shape (`function.arguments`
   * holding a custom call's raw input); the assistant message gets each in its own shape ({@link messageCalls}).
   */
  private custom?: Set<ChatCompletionMessageToolCall>;
  /** The id the provider sent for each call, by position in `calls` (ours may differ). */
  private readonly providerIds: (string | undefined)[] = [];
  /** Provider id → the last position with it: a lookup per delta, where a scan of `providerIds` made a stream quadratic. */
  private readonly lastSlotOfId = new Map<string, number>();
  /** Provider index → position in `calls`. */
  private readonly slots = new Map<number, number>();
  /** Position of the call the previous delta went to. */
  private last?: number;
  private takenIds?: Set<string>;

  /**
   * `takenIds`: the ids already in use, or a function that lists them (called once, at the first call). `content`:
   * where what the calls keep (ids, names, arguments, a provider's fields) is counted; past its cap `push` throws.
   */
  constructor(
    private readonly events: Pick<ResponseEvents, 'onToolCall' | 'onToolParam' | 'onHookError'>,
    private readonly taken: Set<string> | (() => Set<string>) = () => new Set(),
    private readonly content?: ContentLimit,
  ) {}

  /** Feed the `tool_calls` of one chunk's delta. */
  push(deltas: ToolCallDelta[]): void {
    const { onToolCall, onToolParam, onHookError } = this.events;
    const seen = deltas.length > 1 ? new Set<number>() : undefined;
    for (const delta of deltas) {
      const custom = customPart(delta);
      let slot = this.slotOf(delta, custom);
      // Entries of one delta without index are different calls, whatever they carry.
      if (slot !== undefined && typeof delta.index !== 'number' && seen?.has(slot)) slot = undefined;
      let call: ChatCompletionMessageToolCall;
      if (slot === undefined) {
        const name = (custom ? custom.name : delta.function?.name) ?? '';
        const id = this.claim(delta.id);
        this.count('tool call', id);
        this.count('tool call', name);
        call = { id, type: 'function', function: { name, arguments: '' } };
        slot = this.calls.length;
        if (typeof delta.index === 'number') this.slots.set(delta.index, slot);
        this.calls.push(call);
        if (custom) (this.custom ??= new Set()).add(call);
        this.providerIds.push(delta.id || undefined);
        if (delta.id) this.lastSlotOfId.set(delta.id, slot);
        this.count('tool call', keepToolCallFields(call, delta));
        if (onToolCall) callHook(onToolCall, 'onToolCall', { call }, onHookError);
      } else {
        call = this.calls[slot];
        // Some providers open a call with its id alone and name it in a later delta; others repeat the name on
        // every delta, so a name already known is never extended.
        const name = custom ? custom.name : delta.function?.name;
        if (name && !call.function.name) {
          this.count('tool call', name);
          call.function.name = name;
        }
        const kept = keepToolCallFields(call, delta);
        if (kept) this.count('tool call', kept);
      }
      this.last = slot;
      seen?.add(slot);
      // Some servers send the arguments as an object rather than JSON text.
      const raw: unknown = custom ? custom.input : delta.function?.arguments;
      const argsDelta = typeof raw === 'string' ? raw : toModelText(raw);
      if (argsDelta) {
        this.count('arguments', argsDelta);
        call.function.arguments += argsDelta;
        if (onToolParam) callHook(onToolParam, 'onToolParam', { call, argsDelta }, onHookError);
      }
    }
  }

  /**
   * The position of the call a delta continues, or `undefined` when it opens a new one.
   *
   * With an `index`, the call at that index, unless the delta brings a different id: some providers put every
   * call at index 0 and tell them apart only by a new id. Without one (Gemini, older Ollama), the call with the
   * delta's id; a delta with an unknown id, or with a name and no id after a call whose arguments have begun,
   * opens a new call; anything else continues the last call.
   */
  private slotOf(delta: ToolCallDelta, custom: CustomToolCallDelta['custom']): number | undefined {
    const index: unknown = delta.index;
    if (typeof index === 'number') {
      const slot = this.slots.get(index);
      return slot !== undefined && delta.id && this.providerIds[slot] !== delta.id ? undefined : slot;
    }
    if (delta.id) {
      return this.lastSlotOfId.get(delta.id);
    }
    if (this.last === undefined) return undefined;
    const name = custom ? custom.name : delta.function?.name;
    return name && this.calls[this.last].function.arguments ? undefined : this.last;
  }

  /**
   * Opens a call that arrived whole rather than as indexed deltas (a Responses `function_call` item), with the same
   * id rules and hooks as a delta that opens one: `onToolCall`, then `onToolParam` for `args` when there are any.
   * `custom`: a custom tool call (a `custom_tool_call` item), `args` its raw input.
   */
  open(providerId: string | undefined, name: string, args: string, custom = false): ChatCompletionMessageToolCall {
    const call: ChatCompletionMessageToolCall = {
      id: this.claim(providerId || undefined),
      type: 'function',
      function: { name, arguments: '' },
    };
    this.count('tool call', call.id);
    this.count('tool call', name);
    if (providerId) this.lastSlotOfId.set(providerId, this.calls.length);
    this.calls.push(call);
    if (custom) (this.custom ??= new Set()).add(call);
    this.providerIds.push(providerId || undefined);
    const { onToolCall, onHookError } = this.events;
    if (onToolCall) callHook(onToolCall, 'onToolCall', { call }, onHookError);
    if (args) this.append(call, args);
    return call;
  }

  /** Adds one arguments fragment to a call {@link open} returned, firing `onToolParam`. */
  append(call: ChatCompletionMessageToolCall, argsDelta: string): void {
    this.count('arguments', argsDelta);
    call.function.arguments += argsDelta;
    const { onToolParam, onHookError } = this.events;
    if (onToolParam) callHook(onToolParam, 'onToolParam', { call, argsDelta }, onHookError);
  }

  /** How many calls were opened so far. */
  get size(): number {
    return this.calls.length;
  }

  /**
   * The calls in arrival order. Empty arguments become `'{}'` (an empty string is not valid JSON for the API); a
   * custom call's empty input stays empty (it is text, not JSON).
   */
  finish(): ChatCompletionMessageToolCall[] {
    for (const call of this.calls)
      if (!call.function.arguments && !this.custom?.has(call)) call.function.arguments = '{}';
    return this.calls;
  }

  /** Whether `call` is a custom tool call (its `function.arguments` is the raw input). */
  isCustom(call: ChatCompletionMessageToolCall): boolean {
    return this.custom?.has(call) === true;
  }

  /**
   * `calls` (of {@link finish}) as the assistant message keeps them: a custom call as `{ id, type: 'custom', custom:
   * { name, input } }` (what the chat API reads back), with a provider's own fields as they came.
   */
  messageCalls(calls: ChatCompletionMessageToolCall[]): MessageToolCall[] {
    if (!this.custom) return calls;
    return calls.map((call) => {
      if (!this.custom?.has(call)) return call;
      const { function: fn, type: _type, ...rest } = call;
      return { ...rest, type: 'custom', custom: { name: fn.name, input: fn.arguments } };
    });
  }

  /** Counts what a call is about to keep; throws the size error past the response's cap. */
  private count(kind: ContentKind, text: string): void {
    const tooLarge = this.content?.add(kind, text);
    if (tooLarge) throw tooLarge;
  }

  /** The provider's id when it is free, else a fresh one; either way it is taken from now on. */
  private claim(providerId: string | undefined): string {
    const takenIds = (this.takenIds ??= typeof this.taken === 'function' ? this.taken() : this.taken);
    let id = providerId || createId(GENERATED_ID_LENGTH);
    while (takenIds.has(id)) id = createId(GENERATED_ID_LENGTH);
    takenIds.add(id);
    return id;
  }
}

/** The `custom` part of a custom tool call's delta (`type: 'custom'`, or a `custom` object), if it is one. */
function customPart(delta: ToolCallDelta): CustomToolCallDelta['custom'] {
  const { type, custom } = delta as CustomToolCallDelta;
  if (typeof custom !== 'object' || custom === null) return undefined;
  return type === 'custom' || type === undefined ? custom : undefined;
}
