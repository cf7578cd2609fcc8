import { AgentcallError } from '../index';

/**
 * Why `decide` refused a resume token: none given, not signed by the secret, of a pause that is over, or
 * `unconfigured`: the runs have no `secret` and did not opt out with `allowDecideWithoutToken: true`.
 */
export type ResumeTokenProblem = 'missing' | 'forged' | 'stale' | 'unconfigured';

/** The longest part of an id an error message repeats. */
const SHOWN_ID_CHARS = 200;

/** `id` as error text shows it: cut, so a huge id does not make a huge error. */
function shown(id: string): string {
  const text = String(id);
  return text.length > SHOWN_ID_CHARS ? `${text.slice(0, SHOWN_ID_CHARS)}… [cut: ${text.length} characters]` : text;
}

/**
 * `decide` was given no token, a token the secret did not sign, or the token of a pause that is over
 * (the run moved on, was decided already, or ended); or the runs have no `secret` (`unconfigured`). Nothing was
 * changed.
 */
export class ResumeTokenError extends AgentcallError {
  static {
    this.defineName('ResumeTokenError');
  }

  constructor(
    readonly runId: string,
    readonly problem: ResumeTokenProblem,
  ) {
    super(
      problem === 'unconfigured'
        ? `Resume token for run ${shown(runId)} refused: unconfigured (give the runs a secret, or set allowDecideWithoutToken: true)`
        : `Resume token for run ${shown(runId)} refused: ${problem}`,
    );
  }
}

/** `decide` was given no decision, or decisions for calls the run is not waiting on. Nothing was changed. */
export class InvalidDecisionsError extends AgentcallError {
  static {
    this.defineName('InvalidDecisionsError');
  }

  constructor(
    readonly runId: string,
    readonly unknownCallIds: string[],
  ) {
    super(
      unknownCallIds.length
        ? `Run ${shown(runId)} is not waiting on ${shown(unknownCallIds.join(', '))}`
        : `No decision for run ${shown(runId)}: pass { [callId]: { approve: true } | { approve: false, reason? } } for its pending calls (runs.get(runId).state.pending)`,
    );
  }
}

/** No run with this id (never started, or deleted after its TTL). */
export class RunNotFoundError extends AgentcallError {
  static {
    this.defineName('RunNotFoundError');
  }

  constructor(readonly runId: string) {
    super(`Run ${shown(runId)} not found`);
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
    super(`Run ${shown(runId)} neither waited nor ended within ${timeoutMs} ms`);
  }
}

/**
 * A run id that is not a string, is longer than `maxLength` characters, holds `:` (BullMQ job ids), or is empty or
 * starts with `}` (it is the Redis Cluster hash tag of the run's keys).
 */
export class InvalidRunIdError extends AgentcallError {
  static {
    this.defineName('InvalidRunIdError');
  }

  constructor(
    readonly runId: string,
    readonly maxLength: number,
  ) {
    super(
      typeof runId !== 'string'
        ? 'A run id must be a string'
        : runId.length > maxLength
          ? `A run id is at most ${maxLength} characters; this one has ${runId.length}`
          : runId === '' || runId.startsWith('}')
            ? `A run id cannot be empty or start with '}' (the Redis Cluster hash tag of its keys): ${shown(runId)}`
            : `A run id cannot contain ':' (BullMQ job ids): ${shown(runId)}`,
    );
  }
}

/** `start` was given a body and `meta` larger than `maxStartBytes` (as JSON). Nothing was queued. */
export class RunStartTooLargeError extends AgentcallError {
  static {
    this.defineName('RunStartTooLargeError');
  }

  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`A run's start body and meta are at most ${maxBytes} bytes as JSON; these are ${bytes}`);
  }
}

/**
 * Why a queued run's model request and tool calls were aborted when the run was cancelled (`runs.cancel`): the reason
 * of the signal its running tools see (`ctx.signal.reason`). A run that only moves to another worker aborts with
 * another reason, so a tool can tell the two apart: a remote MCP task kept under `taskIds` is cancelled
 * (`tasks/cancel`) on a cancel alone, since no worker will poll it again. Its `name` is what other adapters check.
 */
export class RunCancelledError extends AgentcallError {
  static {
    this.defineName('RunCancelledError');
  }

  constructor() {
    super('The run was cancelled');
  }
}
