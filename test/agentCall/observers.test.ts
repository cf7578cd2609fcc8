import { RunEvents, userHooksObserver } from '../../src/agentCall/events/observers';
import type { RunObserver } from '../../src/agentCall/events/run-events';
import type { HookErrorEvent } from '../../src/utils/call-hook';

const text = { text: 'hi' };

describe('RunEvents', () => {
  it('calls every observer on its own: a throw or a rejection goes to onHookError and the others still hear it', async () => {
    const heard: string[] = [];
    const reported: HookErrorEvent[] = [];
    const throwing: RunObserver = {
      name: 'first',
      text: () => {
        throw new Error('sync bug');
      },
    };
    const rejecting: RunObserver = { name: 'second', text: () => Promise.reject(new Error('async bug')) };
    const listening: RunObserver = {
      name: 'third',
      text(e) {
        // An observer object's method keeps its `this`.
        heard.push(`${this.name}:${e.text}`);
      },
    };
    const events = new RunEvents([throwing, undefined, rejecting, listening], (e) => reported.push(e));
    events.emit('text', text);
    events.sink('text')!(text);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['third:hi', 'third:hi']);
    expect(reported.map((e) => e.hook).sort()).toEqual(['first.text', 'first.text', 'second.text', 'second.text']);
  });

  it('names a failing user hook by its public name, and knows nobody listens when no hook is set', () => {
    const reported: string[] = [];
    const hooks = userHooksObserver({
      onStreaming: () => {
        throw new Error('bug');
      },
    });
    const events = new RunEvents([hooks], ({ hook }) => void reported.push(hook));
    events.emit('text', text);
    expect(reported).toEqual(['onStreaming']);
    expect(events.has('requestEnd')).toBe(false);
    expect(events.sink('reasoning')).toBeUndefined();
    expect(userHooksObserver({})).toBeUndefined();
    const silent = new RunEvents([undefined], undefined);
    expect(
      (['requestStart', 'requestEnd', 'text', 'toolStart', 'toolEnd', 'usage', 'runEnd'] as const).some((n) =>
        silent.has(n),
      ),
    ).toBe(false);
  });

  it('runs work once inside every scope, without a scope that fails before it starts the work', () => {
    const reported: string[] = [];
    const order: string[] = [];
    const broken: RunObserver = {
      name: 'broken',
      within: () => {
        throw new Error('no context today');
      },
    };
    const outer: RunObserver = {
      name: 'outer',
      within: (scope, work) => {
        order.push(`enter ${scope.kind}`);
        return work();
      },
    };
    const events = new RunEvents([outer, broken], ({ hook }) => void reported.push(hook));
    let runs = 0;
    expect(events.within({ kind: 'run' }, () => ++runs)).toBe(1);
    expect(runs).toBe(1);
    expect(order).toEqual(['enter run']);
    expect(reported).toEqual(['broken.within']);
    // The work's own failure is the work's: it is thrown, not reported.
    expect(() =>
      events.within({ kind: 'request' }, () => {
        throw new Error('work failed');
      }),
    ).toThrow('work failed');
    expect(reported).toEqual(['broken.within', 'broken.within']);
  });
});
