import { AgentcallError } from './agentcall.error';

/**
 * Why a run stopped when its `timeoutMs` passed: the reason of the signal every running tool sees, and the
 * `error` of a tool call it interrupted (`outcome: 'aborted'`).
 */
export class RunTimeoutError extends AgentcallError {
  static {
    this.defineName('RunTimeoutError');
  }

  constructor(readonly timeoutMs: number) {
    super(`The run timed out after ${timeoutMs} ms`);
  }
}
