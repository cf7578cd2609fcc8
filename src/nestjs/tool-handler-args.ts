import type { ParamsFactory } from '@nestjs/core';
import type { ToolMethodParameter } from '../internal';

/**
 * The reflect-metadata key of a tool method's parameter map in Nest's handler format (the one `@Body()` and
 * `@Payload()` write under their own keys). Nest's `ExternalContextCreator` reads a handler's parameters only
 * from reflect metadata, so the map is recorded once per tool method under this key of agentcall's own.
 */
export const TOOL_HANDLER_ARGS_METADATA = 'agentcall:tool-handler-args';

/**
 * How each kind of tool parameter reaches pipes, as `ArgumentMetadata.type`: a named `@Param('city')` is a
 * `'param'` (with `data: 'city'`), a whole-DTO `@Param()` a `'body'`, and `@Ctx()` a `'custom'` one, which
 * `ValidationPipe` leaves alone as it does custom parameter decorators.
 */
const PARAMTYPE = {
  // Nest's RouteParamtypes (not exported from the package root): PARAM, BODY and REQUEST.
  param: 5,
  args: 3,
  context: 0,
} as const;

type HandlerArg = { index: number; data?: string; pipes: never[] };

/**
 * Record the parameter map of a tool method, so Nest's pipes run on each parameter and Nest calls the method
 * with its positional arguments, taken from the handler's arguments `(params, ctx)`.
 */
export function recordToolHandlerArgs(host: object, methodName: string, slots: readonly ToolMethodParameter[]): void {
  if (Reflect.hasOwnMetadata(TOOL_HANDLER_ARGS_METADATA, host, methodName)) return;
  const args: Record<string, HandlerArg> = {};
  slots.forEach((slot, index) => {
    args[`${PARAMTYPE[slot.kind]}:${index}`] = { index, ...(slot.kind === 'param' && { data: slot.name }), pipes: [] };
  });
  Reflect.defineMetadata(TOOL_HANDLER_ARGS_METADATA, args, host, methodName);
}

/** Takes each tool parameter from the handler's arguments: the validated params object and the call's context. */
export const toolParamsFactory: ParamsFactory = {
  exchangeKeyForValue(type: number, data: unknown, [params, ctx]: [object, unknown]): unknown {
    if (type === PARAMTYPE.args) return params;
    if (type === PARAMTYPE.context) return ctx;
    return typeof data === 'string' ? Reflect.get(params, data) : undefined;
  },
};
