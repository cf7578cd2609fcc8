import fc from 'fast-check';
import { advanceLoopGuard, forcesAnswer, type LoopGuard } from '../../src/agentCall/turn/loop-guard';
import type { ChatCompletionMessageToolCall } from '../../src/llm/type';

const call = (name: string, args: string, id = 'c'): ChatCompletionMessageToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

const fresh: LoopGuard = { signature: '', repeats: 0 };
const plan = fc.array(fc.record({ name: fc.string({ maxLength: 12 }), args: fc.string({ maxLength: 40 }) }), {
  minLength: 1,
  maxLength: 4,
});
const callsOf = (steps: { name: string; args: string }[]) => steps.map((s, i) => call(s.name, s.args, `id${i}`));

describe('the anti-loop guard', () => {
  it('counts a tool-only turn that repeats the last plan, whatever the call ids', () => {
    fc.assert(
      fc.property(plan, (steps) => {
        const once = advanceLoopGuard(fresh, '', callsOf(steps));
        const renamed = steps.map((s, i) => call(s.name, s.args, `other${i}`));
        const twice = advanceLoopGuard(once, '', renamed);
        expect(once.repeats).toBe(1);
        expect(twice).toEqual({ signature: once.signature, repeats: 2 });
      }),
    );
  });

  it('starts over when any name, argument or their order changes', () => {
    fc.assert(
      fc.property(plan, plan, (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        const first = advanceLoopGuard(fresh, '', callsOf(a));
        expect(advanceLoopGuard(first, '', callsOf(b)).repeats).toBe(1);
      }),
    );
    // The same names with one argument text changed: a new plan, not a repeat.
    fc.assert(
      fc.property(plan, fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), (steps, at, extra) => {
        const changed = steps.map((s, i) => (i === at % steps.length ? { ...s, args: s.args + extra } : s));
        const first = advanceLoopGuard(fresh, '', callsOf(steps));
        expect(advanceLoopGuard(first, '', callsOf(changed)).repeats).toBe(1);
      }),
    );
  });

  it('tells where one text ends and the next begins', () => {
    const split = advanceLoopGuard(fresh, '', [call('ab', 'c')]);
    expect(advanceLoopGuard(split, '', [call('a', 'bc')]).repeats).toBe(1);
    const two = advanceLoopGuard(fresh, '', [call('a', 'b'), call('c', 'd')]);
    expect(advanceLoopGuard(two, '', [call('a', 'bc', 'x'), call('', 'd')]).repeats).toBe(1);
  });

  it('resets on any text answer, and forces an answer only after maxToolTurns repeats (0: never)', () => {
    let guard = fresh;
    for (let i = 0; i < 3; i++) guard = advanceLoopGuard(guard, '', [call('lookup', '{"key":"k"}')]);
    expect(guard.repeats).toBe(3);
    expect(forcesAnswer(guard, 3)).toBe(true);
    expect(forcesAnswer(guard, 4)).toBe(false);
    expect(forcesAnswer(guard, 0)).toBe(false);
    expect(advanceLoopGuard(guard, 'thinking aloud', [call('lookup', '{"key":"k"}')])).toEqual({
      signature: '',
      repeats: 0,
    });
  });
});
