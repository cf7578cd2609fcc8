import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

/**
 * The context manager the OpenTelemetry Node SDK registers (`AsyncLocalStorageContextManager`), in a few lines:
 * without one, OpenTelemetry has no active span at all, and no span can be a child of the one running.
 */
class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(ctx, () => fn(...args))) as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** Register an async-local context manager for the tests of a file; returns what unregisters it. */
export function useAsyncContext(): () => void {
  context.setGlobalContextManager(new AsyncLocalContextManager());
  return () => context.disable();
}
