import { AgentcallError } from '../index';

/** Why `decide` refused a resume token. */
export type ResumeTokenProblem = 'missing' | 'forged' | 'stale';

/**
 * `decide` was given no token, a token the secret did not sign, or the token of a pause that is over
 * (the run moved on, was decided already, or ended). Nothing was changed.
 */
export class ResumeTokenError extends AgentcallError {
  static {
    this.defineName('ResumeTokenError');
  }

  constructor(
    readonly runId: string,
    readonly problem: ResumeTokenProblem,
  ) {
    super(`Resume token for run ${runId} refused: ${problem}`);
  }
}

/** `decide` was given decisions for calls the run is not waiting on. Nothing was changed. */
export class InvalidDecisionsError extends AgentcallError {
  static {
    this.defineName('InvalidDecisionsError');
  }

  constructor(
    readonly runId: string,
    readonly unknownCallIds: string[],
  ) {
    super(`Run ${runId} is not waiting on ${unknownCallIds.join(', ')}`);
  }
}

/** No run with this id (never started, or deleted after its TTL). */
export class RunNotFoundError extends AgentcallError {
  static {
    this.defineName('RunNotFoundError');
  }

  constructor(readonly runId: string) {
    super(`Run ${runId} not found`);
  }
}

/** `wait` gave up before the run waited for a person or ended. */
export class RunWaitTimeoutError extends AgentcallError {
  static {
    this.defineName('RunWaitTimeoutError');
  }

  constructor(
    readonly runId: string,
    readonly timeoutMs: number,
  ) {
    super(`Run ${runId} neither waited nor ended within ${timeoutMs} ms`);
  }
}
