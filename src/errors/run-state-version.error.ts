import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `resumeFrom` is not a run state this version of agentcall can read (an unknown
 * `v`, or not a run state at all). The run does not start afresh: it ends at once with `stopReason: 'error'`.
 */
export class RunStateVersionError extends AgentcallError {
  static {
    this.defineName('RunStateVersionError');
  }

  /** The `v` the state carried (`undefined` when it had none). */
  readonly version: unknown;

  constructor(version: unknown) {
    super(
      `Cannot resume from a run state of version ${JSON.stringify(version) ?? 'undefined'}: only version 1 is known`,
    );
    this.version = version;
  }
}
