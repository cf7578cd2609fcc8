/**
 * What `ExecutionContext.getType()` returns inside guards, interceptors, pipes and exception filters that run
 * around a tool call. `getArgByIndex(0)` is the validated params object, `getArgByIndex(1)` the
 * `ToolExecuteContext` (`call`, `caller`, `signal`, `messages`).
 *
 * @example
 * canActivate(context: ExecutionContext): boolean {
 *   if (context.getType<AgentToolContextType>() !== AGENT_TOOL_CONTEXT) return true;
 *   const { caller } = context.getArgByIndex<ToolExecuteContext>(1);
 *   return (caller as User).roles.includes('admin');
 * }
 */
export const AGENT_TOOL_CONTEXT = 'agent-tool';

/** The context type of a tool call, for `context.getType<AgentToolContextType>()`. */
export type AgentToolContextType = typeof AGENT_TOOL_CONTEXT;
