import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { createId } from '../utils/id';
import type { ChatCompletionMessageToolCall } from './type';

type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

/** Hooks fired while tool calls stream in. */
export type ToolCallStreamEvents = {
  /** A new tool call appeared (its arguments are still empty). Fired once per call, unknown names included. */
  onToolCall?: (e: { call: ChatCompletionMessageToolCall }) => void;
  /** One arguments fragment of `tool` (the fragment, not the running total). */
  onToolParam?: (e: { tool: ChatCompletionMessageToolCall; argsDelta: string }) => void;
};

/**
 * Assembles streamed tool-call deltas by `index` into whole calls, firing the hooks as calls and
 * argument fragments arrive. Names the model made up are kept, so each gets an answer later.
 */
export class ToolCallAccumulator {
  private readonly calls: ChatCompletionMessageToolCall[] = [];
  /** Provider index → position in `calls`. */
  private readonly slots = new Map<number, number>();

  constructor(private readonly events: ToolCallStreamEvents) {}

  /** Feed the `tool_calls` of one chunk's delta. */
  push(deltas: ToolCallDelta[]): void {
    for (let i = 0; i < deltas.length; i++) {
      const delta = deltas[i];
      const index = delta.index ?? i;
      let slot = this.slots.get(index);
      // Some providers put every call at index 0 and tell them apart only by a new id.
      if (slot !== undefined && delta.id && this.calls[slot].id !== delta.id) slot = undefined;
      let call: ChatCompletionMessageToolCall;
      if (slot === undefined) {
        call = {
          id: delta.id || `call_${createId(12)}`,
          type: 'function',
          function: { name: delta.function?.name ?? '', arguments: '' },
        };
        this.slots.set(index, this.calls.length);
        this.calls.push(call);
        this.events.onToolCall?.({ call });
      } else {
        call = this.calls[slot];
        // Some providers open a call with its id alone and name it in a later delta; others repeat the name on
        // every delta, so a name already known is never extended.
        if (delta.function?.name && !call.function.name) call.function.name = delta.function.name;
      }
      const argsDelta = delta.function?.arguments;
      if (argsDelta) {
        call.function.arguments += argsDelta;
        this.events.onToolParam?.({ tool: call, argsDelta });
      }
    }
  }

  /**
   * The calls in arrival order. Empty arguments become `'{}'` (an empty string is not valid JSON for the API),
   * and an id the model used twice is made unique, so every call can get exactly one tool message.
   */
  finish(): ChatCompletionMessageToolCall[] {
    const seen = new Set<string>();
    for (const call of this.calls) {
      if (!call.function.arguments) call.function.arguments = '{}';
      if (seen.has(call.id)) call.id = `${call.id}_${createId(6)}`;
      seen.add(call.id);
    }
    return this.calls;
  }
}
