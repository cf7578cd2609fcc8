import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `runAgentLoop`'s `wire` is none of `'auto'`, `'chat'` and `'responses'` (a value from
 * configuration, or a plain-JavaScript caller, is not held to the type). The run ends at once with
 * `stopReason: 'error'`; nothing is sent, rather than going out on a wire nobody chose.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, wire: process.env.WIRE as Wire });
 * if (InvalidWireError.isInstance(result.error)) console.error(result.error.wire);
 */
export class InvalidWireError extends AgentcallError {
  static {
    this.defineName('InvalidWireError');
  }

  /** The value given, as it came. */
  readonly wire: unknown;

  constructor(wire: unknown) {
    super(`Unknown wire ${JSON.stringify(String(wire).slice(0, 60))}: use 'auto', 'chat' or 'responses'`);
    this.wire = wire;
  }
}
