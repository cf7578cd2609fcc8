import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from '../llm/type';
import { createId } from '../utils/id';

/**
 * The tool-call ids already in a run's history. A call whose id is taken (reused from an earlier turn or from
 * the caller's messages) gets a fresh one before it enters the history: strict providers (Mistral, MiniMax)
 * refuse a repeated id anywhere in it. Repeats inside one turn are already made unique by the accumulator.
 */
export class UniqueCallIds {
  private readonly ids: Set<string>;

  constructor(history: readonly ChatCompletionMessageParam[]) {
    this.ids = new Set(
      history.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : [])),
    );
  }

  /** Rename the calls whose id is taken, and remember them all. */
  claim(calls: ChatCompletionMessageToolCall[]): void {
    for (const call of calls) {
      while (this.ids.has(call.id)) call.id = `call_${createId(12)}`;
      this.ids.add(call.id);
    }
  }
}
