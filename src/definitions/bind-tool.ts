import type { ToolDefinition, ToolExecuteContext } from '../toolCall/type';
import type { ToolBlueprint } from './build-tool-blueprint';
import { resolveProfile, type SchemaProfile } from './profiles/schema-profile';
import { mapToolReturn } from './results/map-tool-return';
import { isToolResult } from './results/tool-result';

/** Options of the list form of `toolsFrom`: defaults it applies to every tool that does not set its own. */
export type ToolsFromOptions = {
  /**
   * The schema dialect of every tool (see {@link SchemaProfile}). Default `'openai'`. Validation is the same in
   * every profile; what a profile leaves out of the schema is stated in the field's description instead and listed
   * by `schemaReport`.
   */
  profile?: SchemaProfile;
  /**
   * OpenAI strict mode for tools whose `@Tool` does not set `strict`. Default `false`, or `true` with
   * `profile: 'openai-strict'`: `{ strict: true }` and `{ profile: 'openai-strict' }` send the same schemas.
   * Ignored by the `'gemini'`, `'anthropic'` and `'lenient'` profiles, whose endpoints have no strict mode
   * reachable through the OpenAI API.
   */
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
export function bindTool(
  blueprint: ToolBlueprint,
  instance: object,
  defaults: ToolsFromOptions,
): ToolDefinition<object> {
  const profile = resolveProfile(defaults.profile, blueprint.strict, defaults.strict);
  const timeoutMs = blueprint.timeoutMs ?? defaults.timeoutMs;
  const { methodName, slots } = blueprint;
  return {
    schema: blueprint.schemaFor(profile).schema,
    parseParams: blueprint.parseParams,
    execute: async (ctx: ToolExecuteContext<object>) => {
      const method = Reflect.get(instance, methodName) as (...args: unknown[]) => unknown;
      const args = new Array<unknown>(slots.length);
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        args[i] = slot.kind === 'param' ? Reflect.get(ctx.params, slot.name) : slot.kind === 'args' ? ctx.params : ctx;
      }
      const returned: unknown = await method.apply(instance, args);
      const result = mapToolReturn(returned);
      // A declared result class: the object itself goes to MCP clients as `structuredContent`.
      if (blueprint.outputSchema && isPlainResult(returned)) result.structuredContent = { ...returned };
      return result;
    },
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(blueprint.idempotent !== undefined && { idempotent: blueprint.idempotent }),
    ...(blueprint.concurrency !== undefined && { concurrency: blueprint.concurrency }),
    ...(blueprint.retry !== undefined && { retry: { ...blueprint.retry } }),
    ...(blueprint.repairArguments !== undefined && { repairArguments: blueprint.repairArguments }),
    // The validated arguments are always a plain-keyed object (the DTO or the synthesized arguments class).
    ...(blueprint.needsApproval !== undefined && {
      needsApproval: blueprint.needsApproval as ToolDefinition<object>['needsApproval'],
    }),
    ...(blueprint.deferred === true && { deferred: true }),
    ...(blueprint.title !== undefined && { title: blueprint.title }),
    ...(blueprint.annotations !== undefined && { annotations: { ...blueprint.annotations } }),
    ...(blueprint.outputSchema !== undefined && { outputSchema: blueprint.outputSchema }),
    ...(blueprint.task === true && { task: true }),
  };
}

/** A returned object that is the result itself, not a `toolResult(…)` wrapping one. */
function isPlainResult(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isToolResult(value);
}
