import type { ToolDefinition, ToolExecuteContext, ToolExecuteResult } from '../../src/toolCall/type';

/** A hand-written tool for loop tests: records every context it was called with. */
export function fakeTool<P = Record<string, unknown>>(
  name: string,
  execute: (ctx: ToolExecuteContext<P>) => ToolExecuteResult | Promise<ToolExecuteResult>,
  extra: Partial<ToolDefinition<P>> = {},
): ToolDefinition<P> & { calls: ToolExecuteContext<P>[] } {
  const calls: ToolExecuteContext<P>[] = [];
  return {
    schema: {
      type: 'function',
      function: {
        name,
        description: `${name} tool`,
        parameters: { type: 'object', properties: {}, additionalProperties: true },
      },
    },
    execute: async (ctx) => {
      calls.push(ctx);
      return execute(ctx);
    },
    calls,
    ...extra,
  };
}

export const user = (content: string) => ({ role: 'user' as const, content });
