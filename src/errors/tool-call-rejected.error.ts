import { AgentcallError } from './agentcall.error';

/**
 * Throw it from a tool's `execute` to refuse the call rather than fail it: the model reads the message (masked
 * like any error text, without a `Tool error:` prefix) and `runTool` reports `outcome: 'rejected'`.
 *
 * `agentcall/nestjs` throws it when a guard refuses a tool call, so an adapter, a wrapper or a hand-written tool
 * can say "not allowed" through the core's public API.
 *
 * @example
 * execute: async ({ caller, params }) => {
 *   if (!isAdmin(caller)) throw new ToolCallRejectedError('Tool call not allowed: only admins may delete users');
 *   return { response: await users.delete(params.id) };
 * }
 */
export class ToolCallRejectedError extends AgentcallError {
  static {
    this.defineName('ToolCallRejectedError');
  }

  constructor(message = 'Tool call not allowed', options?: ErrorOptions) {
    super(message, options);
  }
}
