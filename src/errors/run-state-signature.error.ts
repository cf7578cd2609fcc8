import { AgentcallError } from './agentcall.error';

/** Why a run state failed verification against `stateSecret`. */
export type RunStateSignatureProblem = RunStateSignatureError['problem'];

/**
 * Returned as `error` when `runAgentLoop` has a `stateSecret` and `resumeFrom` carries no `signature` (`missing`)
 * or one that this secret did not make over exactly this state (`forged`: edited, or signed with another secret).
 * The run ends at once with `stopReason: 'error'`; nothing is requested and no tool runs.
 */
export class RunStateSignatureError extends AgentcallError {
  static {
    this.defineName('RunStateSignatureError');
  }

  /** What was wrong with the signature. */
  readonly problem: 'missing' | 'forged';

  constructor(problem: 'missing' | 'forged') {
    super(`Cannot resume from this run state: its signature is ${problem}`);
    this.problem = problem;
  }
}
