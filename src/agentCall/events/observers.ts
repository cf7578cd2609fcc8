import { callHook, reportHookError, type HookErrorHandler } from '../../utils/call-hook';
import type { RunEventMap, RunEventName, RunObserver, RunScope } from './run-events';
import type { ResponseEvents } from '../../llm/response/response-types';
import type { ObserverOptions } from './event-types';

/** The caller's hooks that observe the run, as the run's options carry them. */
type UserHooks = ResponseEvents & ObserverOptions;

type Listener<K extends RunEventName> = { fn: (event: RunEventMap[K]) => unknown; hook: string };
type Listeners = { [K in RunEventName]?: Listener<K>[] };

/** The user's hooks as the events they observe; each keeps its public name in `onHookError`. */
const USER_HOOKS = {
  requestEnd: 'onRequestEnd',
  text: 'onStreaming',
  reasoning: 'onReasoning',
  toolCall: 'onToolCall',
  toolParam: 'onToolParam',
  toolEnd: 'onAfterToolCall',
  toolProgress: 'onToolProgress',
  usage: 'usagePush',
} as const satisfies Partial<Record<RunEventName, keyof UserHooks>>;

/**
 * The caller's observer hooks as one observer, or `undefined` when none is set.
 *
 * @internal
 */
export function userHooksObserver(props: UserHooks): RunObserver | undefined {
  let observer: RunObserver | undefined;
  for (const [event, hook] of Object.entries(USER_HOOKS) as [
    RunEventName,
    (typeof USER_HOOKS)[keyof typeof USER_HOOKS],
  ][]) {
    const fn = props[hook];
    if (typeof fn !== 'function') continue;
    observer ??= { name: 'hooks', hookNames: USER_HOOKS };
    (observer as Record<string, unknown>)[event] = fn;
  }
  return observer;
}

/**
 * The loop's event channel: each event goes to every observer that listens to it, each called on its own and
 * isolated by one rule (a throw or a rejection goes to `onHookError`, the run goes on). Who listens to what is
 * worked out once, so the loop asks `has` before it builds an event: nobody listening costs nothing.
 *
 * @internal
 */
export class RunEvents {
  private readonly listeners: Listeners = {};
  private readonly scopes: { within: NonNullable<RunObserver['within']>; hook: string }[] = [];

  constructor(
    observers: readonly (RunObserver | undefined)[],
    private readonly onHookError: HookErrorHandler | undefined,
  ) {
    for (const observer of observers) {
      if (!observer) continue;
      for (const key of Object.keys(observer) as (keyof RunObserver)[]) {
        if (key === 'name' || key === 'hookNames') continue;
        const fn = observer[key] as ((...args: never[]) => unknown) | undefined;
        if (typeof fn !== 'function') continue;
        const hook = observer.hookNames?.[key] ?? `${observer.name}.${key}`;
        if (key === 'within') {
          this.scopes.push({ within: fn.bind(observer) as NonNullable<RunObserver['within']>, hook });
          continue;
        }
        const list = (this.listeners[key] ??= []) as Listener<RunEventName>[];
        // Methods of an observer object keep their `this`; a user's hook is called on its own, as it always was.
        const listener = (observer.hookNames === USER_HOOKS ? fn : fn.bind(observer)) as Listener<RunEventName>['fn'];
        list.push({ fn: listener, hook });
      }
    }
  }

  /** Whether any observer runs work in a scope: ask before building one for `within`. */
  get scoped(): boolean {
    return this.scopes.length > 0;
  }

  /** Whether anyone listens to `name`: ask before building its event. */
  has(name: RunEventName): boolean {
    return this.listeners[name] !== undefined;
  }

  /** Hand `event` to every listener of `name`, each isolated from the run and from the others. */
  emit<K extends RunEventName>(name: K, event: RunEventMap[K]): void {
    const list = this.listeners[name];
    if (!list) return;
    for (const { fn, hook } of list) callHook(fn, hook, event, this.onHookError);
  }

  /** A callback that emits `name`, for a layer that takes one (the request's streaming hooks); none when unheard. */
  sink<K extends RunEventName>(name: K): ((event: RunEventMap[K]) => void) | undefined {
    const list = this.listeners[name];
    if (!list) return undefined;
    return (event) => {
      for (const { fn, hook } of list) callHook(fn, hook, event, this.onHookError);
    };
  }

  /**
   * Run `work` inside every observer's scope for it (tracing's active span). An observer that fails before it
   * starts the work is reported and skipped: the work runs once, with or without it.
   */
  within<T>(scope: RunScope, work: () => T): T {
    let run = work;
    for (const { within, hook } of this.scopes) {
      const inner = run;
      run = () => {
        let started = false;
        try {
          return within(scope, () => {
            started = true;
            return inner();
          });
        } catch (error) {
          if (started) throw error;
          reportHookError(this.onHookError, hook, error);
          return inner();
        }
      };
    }
    return run();
  }
}
