import { AgentcallError } from './agentcall.error';

/**
 * Why a run stopped when `isAborted` returned true: the reason of the signal every running tool sees, and
 * the `error` of a tool call it interrupted (`outcome: 'aborted'`) or kept from starting (`'skipped'`).
 */
export class RunAbortedError extends AgentcallError {
  static {
    this.defineName('RunAbortedError');
  }

  constructor() {
    super('The run was aborted');
  }
}
