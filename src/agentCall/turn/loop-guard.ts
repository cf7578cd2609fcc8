import type { ChatCompletionMessageToolCall } from '../../llm/type';
import type { RunState } from '../state/run-state';

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

/**
 * Names in order and their arguments, hashed: what makes two tool-only turns the same plan. Two 32-bit FNV-1a
 * style lanes over the text, not a cryptographic digest: the guard only compares a turn with the one before it,
 * and a native hash object per turn cost more than the rest of the guard. A collision could only force one text
 * answer early.
 */
function toolCallSignature(calls: readonly ChatCompletionMessageToolCall[]): string {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (const call of calls) {
    for (const text of [call.function.name, call.function.arguments]) {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        a = Math.imul(a ^ code, 0x01000193);
        b = Math.imul(b ^ code, 0x5bd1e995);
      }
      // A separator after each text, so `ab` + `c` and `a` + `bc` differ.
      a = Math.imul(a ^ 0xff, 0x01000193);
      b = Math.imul(b ^ (b >>> 15), 0x5bd1e995);
    }
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}
