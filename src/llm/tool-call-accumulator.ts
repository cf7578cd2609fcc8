import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { callHook, type HookErrorHandler } from '../utils/call-hook';
import { createId } from '../utils/id';
import type { ChatCompletionMessageToolCall } from './type';

type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

/** What `onToolParam` receives. */
export type ToolParamEvent = {
  /** The call the fragment belongs to, with its final id. */
  call: ChatCompletionMessageToolCall;
  /** The fragment, not the running total. */
  argsDelta: string;
  /** @deprecated The same object as `call`; use `call`. */
  tool: ChatCompletionMessageToolCall;
};

/** Hooks fired while tool calls stream in. */
export type ToolCallStreamEvents = {
  /**
   * A new tool call appeared (its arguments may still be empty). Fired once per call, unknown names included;
   * `call.id` is already final: the same id reaches `onToolParam`, `onAfterToolCall` and the history.
   */
  onToolCall?: (e: { call: ChatCompletionMessageToolCall }) => void;
  /** One arguments fragment of `call`. */
  onToolParam?: (e: ToolParamEvent) => void;
  /**
   * Told when a hook (any of them) threw or its promise rejected. Hooks are observers: the run or response goes
   * on as if the hook had not been there, and nothing it threw reaches the model. A throw here is ignored.
   */
  onHookError?: HookErrorHandler;
};

/**
 * Assembles streamed tool-call deltas by `index` into whole calls, firing the hooks as calls and
 * argument fragments arrive. Names the model made up are kept, so each gets an answer later.
 *
 * Ids are settled when a call is first seen, before any hook: a call without an id, or with one already
 * taken (in `takenIds`, the history's, or by an earlier call of this response), gets a fresh `call_…` id.
 */
export class ToolCallAccumulator {
  private readonly calls: ChatCompletionMessageToolCall[] = [];
  /** The id the provider sent for each call, by position in `calls` (ours may differ). */
  private readonly providerIds: (string | undefined)[] = [];
  /** Provider index → position in `calls`. */
  private readonly slots = new Map<number, number>();
  private takenIds?: Set<string>;

  /** `takenIds`: the ids already in use, or a function that lists them (called once, at the first call). */
  constructor(
    private readonly events: ToolCallStreamEvents,
    private readonly taken: Set<string> | (() => Set<string>) = () => new Set(),
  ) {}

  /** Feed the `tool_calls` of one chunk's delta. */
  push(deltas: ToolCallDelta[]): void {
    const { onToolCall, onToolParam, onHookError } = this.events;
    for (let i = 0; i < deltas.length; i++) {
      const delta = deltas[i];
      const index = delta.index ?? i;
      let slot = this.slots.get(index);
      // Some providers put every call at index 0 and tell them apart only by a new id.
      if (slot !== undefined && delta.id && this.providerIds[slot] !== delta.id) slot = undefined;
      let call: ChatCompletionMessageToolCall;
      if (slot === undefined) {
        call = {
          id: this.claim(delta.id),
          type: 'function',
          function: { name: delta.function?.name ?? '', arguments: '' },
        };
        this.slots.set(index, this.calls.length);
        this.calls.push(call);
        this.providerIds.push(delta.id || undefined);
        if (onToolCall) callHook(onToolCall, 'onToolCall', { call }, onHookError);
      } else {
        call = this.calls[slot];
        // Some providers open a call with its id alone and name it in a later delta; others repeat the name on
        // every delta, so a name already known is never extended.
        if (delta.function?.name && !call.function.name) call.function.name = delta.function.name;
      }
      const argsDelta = delta.function?.arguments;
      if (argsDelta) {
        call.function.arguments += argsDelta;
        if (onToolParam) callHook(onToolParam, 'onToolParam', { call, argsDelta, tool: call }, onHookError);
      }
    }
  }

  /** The calls in arrival order. Empty arguments become `'{}'` (an empty string is not valid JSON for the API). */
  finish(): ChatCompletionMessageToolCall[] {
    for (const call of this.calls) if (!call.function.arguments) call.function.arguments = '{}';
    return this.calls;
  }

  /** The provider's id when it is free, else a fresh one; either way it is taken from now on. */
  private claim(providerId: string | undefined): string {
    const takenIds = (this.takenIds ??= typeof this.taken === 'function' ? this.taken() : this.taken);
    let id = providerId || `call_${createId(12)}`;
    while (takenIds.has(id)) id = `call_${createId(12)}`;
    takenIds.add(id);
    return id;
  }
}
