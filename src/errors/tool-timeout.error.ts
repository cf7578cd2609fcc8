import { AgentcallError } from './agentcall.error';

/** The `error` of a tool call whose `timeoutMs` passed (`outcome: 'timeout'`), and the reason of its aborted signal. */
export class ToolTimeoutError extends AgentcallError {
  static {
    this.defineName('ToolTimeoutError');
  }

  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
  ) {
    super(`${toolName} timed out after ${timeoutMs} ms`);
  }
}
