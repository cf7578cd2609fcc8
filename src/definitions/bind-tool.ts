import type { ToolDefinition, ToolExecuteContext } from '../toolCall/type';
import type { ToolBlueprint } from './build-tool-blueprint';
import { mapToolReturn } from './results/map-tool-return';

/** Defaults `toolsFrom` applies to every tool that does not set its own. */
export type ToolDefaults = {
  /** OpenAI strict mode for tools whose `@Tool` does not set `strict`. Default `false`. */
  strict?: boolean;
  /** Timeout for tools whose `@Tool` does not set `timeoutMs`. */
  timeoutMs?: number;
};

/**
 * Bind a blueprint to one instance: `execute` calls the method on that instance with positional arguments
 * (named params from the validated arguments, the DTO itself, or the context for `@Ctx`).
 *
 * The method is looked up on every call, so spies and patches applied after binding are honoured; whatever
 * it throws propagates to `runTool`, which turns it into a `Tool error: …` response.
 *
 * @internal
 */
export function bindTool(blueprint: ToolBlueprint, instance: object, defaults: ToolDefaults): ToolDefinition<object> {
  const strict = blueprint.strict ?? defaults.strict ?? false;
  const timeoutMs = blueprint.timeoutMs ?? defaults.timeoutMs;
  return {
    schema: strict ? blueprint.schemas.strict : blueprint.schemas.loose,
    parseParams: blueprint.parseParams,
    execute: async (ctx: ToolExecuteContext<object>) => {
      const method = Reflect.get(instance, blueprint.methodName) as (...args: unknown[]) => unknown;
      const args = blueprint.slots.map((slot) => {
        if (slot.kind === 'context') return ctx;
        return slot.kind === 'args' ? ctx.params : (Reflect.get(ctx.params, slot.name) as unknown);
      });
      const returned: unknown = await method.apply(instance, args);
      return mapToolReturn(returned);
    },
    ...(timeoutMs !== undefined && { timeoutMs }),
    // The validated arguments are always a plain-keyed object (the DTO or the synthesized arguments class).
    ...(blueprint.needsApproval !== undefined && {
      needsApproval: blueprint.needsApproval as ToolDefinition<object>['needsApproval'],
    }),
  };
}
