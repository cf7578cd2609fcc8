import { HttpException, HttpStatus } from '@nestjs/common';
import type { ContextId, ExternalContextCreator } from '@nestjs/core';
import { getErrText, ToolCallRejectedError } from '../index';
import type { ToolDefinition, ToolExecuteContext, ToolExecuteResult } from '../index';
import { mapToolReturn, type ToolMethod } from '../internal';
import { AGENT_TOOL_CONTEXT } from './agent-tool-context';
import { hasLocalEnhancers } from './enhancer-metadata';
import { recordToolHandlerArgs, TOOL_HANDLER_ARGS_METADATA, toolParamsFactory } from './tool-handler-args';

/** The provider instance a tool runs on, and the Nest context it was resolved in. */
export type ToolHost = {
  readonly instance: object;
  /** The `@Tool` method the definition stands for. */
  readonly method: ToolMethod;
  /** The Nest context of a request-scoped or transient instance; none for a singleton. */
  readonly contextId?: ContextId;
  /** The provider's wrapper id, so transient and request-scoped enhancers resolve for it. */
  readonly inquirerId?: string;
};

/** What every enhanced tool of one application shares. */
export type ToolEnhancerSupport = {
  readonly contextCreator: ExternalContextCreator;
  /** Whether the application has global enhancers (asked when a tool is first called, then remembered). */
  readonly hasGlobalEnhancers: () => boolean;
};

type Execute = (ctx: ToolExecuteContext<object>) => Promise<ToolExecuteResult>;

/**
 * The tool, run through the guards, interceptors, pipes and exception filters Nest would apply to its method,
 * with an execution context of type `'agent-tool'` whose arguments are `(params, ctx)`.
 *
 * Whether any apply is decided on the tool's first call (after the application has registered its global
 * enhancers), and kept: a tool with none runs its own `execute` behind one call, so it costs next to nothing
 * more than outside Nest. The definition given is never changed.
 */
export function enhanceTool(
  definition: ToolDefinition<object>,
  host: ToolHost,
  support: ToolEnhancerSupport,
): ToolDefinition<object> {
  let run: Execute | undefined;
  const choose = (): Execute => {
    const method = Reflect.get(host.instance, host.method.methodName) as object;
    const enhanced = hasLocalEnhancers(host.instance.constructor, method) || support.hasGlobalEnhancers();
    return enhanced ? throughNest(host, support.contextCreator) : definition.execute;
  };
  // A new definition whose `execute` never changes: the choice is kept in the closure, so a definition handed
  // out (or frozen, or compared by identity) stays the same object with the same functions.
  return { ...definition, execute: (ctx) => (run ??= choose())(ctx) };
}

function throughNest(host: ToolHost, contextCreator: ExternalContextCreator): Execute {
  const { instance } = host;
  const { methodName } = host.method;
  recordToolHandlerArgs(instance.constructor, methodName, host.method.parameters);
  const handler = contextCreator.create(
    instance,
    Reflect.get(instance, methodName) as (...args: unknown[]) => unknown,
    methodName,
    TOOL_HANDLER_ARGS_METADATA,
    toolParamsFactory,
    host.contextId,
    host.inquirerId,
    undefined,
    AGENT_TOOL_CONTEXT,
  );
  return async (ctx) => {
    try {
      // An exception filter's answer comes back as it returned it, an Observable included.
      return mapToolReturn(await settle(await handler(ctx.params, ctx)));
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === (HttpStatus.FORBIDDEN as number)) {
        throw new ToolCallRejectedError(rejectionText(error), { cause: error });
      }
      throw error;
    }
  };
}

/** Nest's own messages for a refusal (`new ForbiddenException()` and a guard that returned false) say nothing more. */
const DEFAULT_FORBIDDEN_MESSAGES = new Set(['Forbidden', 'Forbidden resource']);

function rejectionText(error: HttpException): string {
  const message = getErrText(error, '');
  return message && !DEFAULT_FORBIDDEN_MESSAGES.has(message)
    ? `Tool call not allowed: ${message}`
    : 'Tool call not allowed';
}

type Subscribable = {
  subscribe(observer: { next(value: unknown): void; error(error: unknown): void; complete(): void }): unknown;
};

/** The last value of an Observable (as `lastValueFrom`, without importing rxjs), or the value itself. */
function settle(value: unknown): Promise<unknown> {
  if (typeof (value as Partial<Subscribable> | null)?.subscribe !== 'function') return Promise.resolve(value);
  return new Promise((resolve, reject) => {
    let last: unknown;
    (value as Subscribable).subscribe({ next: (v) => (last = v), error: reject, complete: () => resolve(last) });
  });
}
