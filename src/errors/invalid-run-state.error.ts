import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when a `resumeFrom` (or `childrenInteractiveParams`) of a known version is malformed: a field
 * of the wrong type, a count that is not a non-negative safe integer, a message of no known shape, or a pending call
 * the history's last turn did not make or has answered already. The run ends at once with `stopReason: 'error'`;
 * nothing is requested and no tool runs.
 */
export class InvalidRunStateError extends AgentcallError {
  static {
    this.defineName('InvalidRunStateError');
  }

  /** Where the problem is, as a path into the state (`messages[3].tool_calls[0].id`, `turn`). */
  readonly path: string;
  /** What is wrong there (`must be a string`). */
  readonly problem: string;

  constructor(path: string, problem: string) {
    super(`Cannot resume from this run state: ${path} ${problem}`);
    this.path = path;
    this.problem = problem;
  }
}
