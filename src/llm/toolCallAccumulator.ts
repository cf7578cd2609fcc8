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

  constructor(private readonly events: ToolCallStreamEvents) {}

  /** Feed the `tool_calls` of one chunk's delta. */
  push(deltas: ToolCallDelta[]): void {
    for (let i = 0; i < deltas.length; i++) {
      const delta = deltas[i];
      const index = delta.index ?? i;
      let call = this.calls[index];
      if (!call) {
        call = { id: delta.id || `call_${createId(12)}`, type: 'function', function: { name: delta.function?.name ?? '', arguments: '' } };
        this.calls[index] = call;
        this.events.onToolCall?.({ call });
      } else if (delta.function?.name && !call.function.name) {
        // Some providers open a call with its id alone and send the name in a later delta; others repeat the
        // name on every delta, so a name already known is never extended.
        call.function.name = delta.function.name;
      }
      const argsDelta = delta.function?.arguments;
      if (argsDelta) {
        call.function.arguments += argsDelta;
        this.events.onToolParam?.({ tool: call, argsDelta });
      }
    }
  }

  /** The calls in index order; empty arguments become `'{}'` (an empty string is not valid JSON for the API). */
  finish(): ChatCompletionMessageToolCall[] {
    const calls: ChatCompletionMessageToolCall[] = [];
    for (const call of this.calls) {
      if (!call) continue;
      if (!call.function.arguments) call.function.arguments = '{}';
      calls.push(call);
    }
    return calls;
  }
}
