import { createHash } from 'node:crypto';
import type { ChatCompletionMessageToolCall } from '../llm/type';
import type { RunState } from './run-state';

/**
 * The anti-loop guard: the last tool-only turn's call signature and how many turns in a row repeated it.
 *
 * @internal
 */
export type LoopGuard = RunState['loopGuard'];

/**
 * The guard after a turn that made `calls`. Only a turn that repeats the same calls counts: any text, or a new
 * plan, means the model is not stuck, so the count starts over.
 *
 * @internal
 */
export function advanceLoopGuard(
  guard: LoopGuard,
  answerText: string,
  calls: readonly ChatCompletionMessageToolCall[],
): LoopGuard {
  const signature = answerText ? '' : toolCallSignature(calls);
  return { signature, repeats: !signature ? 0 : signature === guard.signature ? guard.repeats + 1 : 1 };
}

/**
 * Whether the next request must forbid tools (`tool_choice: 'none'`): the model repeated itself for
 * `maxToolTurns` turns, and only a text answer can end that. `0` turns the guard off.
 *
 * @internal
 */
export function forcesAnswer(guard: LoopGuard, maxToolTurns: number): boolean {
  return maxToolTurns > 0 && guard.repeats >= maxToolTurns;
}

/** Names in order and their arguments, hashed: what makes two tool-only turns the same plan. */
function toolCallSignature(calls: readonly ChatCompletionMessageToolCall[]): string {
  const hash = createHash('sha256');
  for (const call of calls) hash.update(call.function.name).update('\0').update(call.function.arguments).update('\0');
  return hash.digest('hex').slice(0, 32);
}
