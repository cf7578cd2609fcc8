import { AgentcallError } from './agentcall.error';

/**
 * The run's final answer did not match its `output` schema, and the feedback rounds (`outputRetries`) were used up.
 * `runAgentLoop` returns it as `error` with `stopReason: 'output_invalid'`; `output` is absent and every message is
 * kept, the last answer included. Its message lists the last answer's problems, one `path: message` line each.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, output: OrderDto });
 * if (OutputValidationError.isInstance(result.error)) console.error(result.error.lines.join('\n'));
 */
export class OutputValidationError extends AgentcallError {
  static {
    this.defineName('OutputValidationError');
  }

  /** The last answer's problems, one `path: message` line each (`items[1].qty: qty must not be less than 1`). */
  readonly lines: readonly string[];
  /** How many final answers failed in the run (across resumes), the last one included. */
  readonly attempts: number;

  constructor(lines: readonly string[], attempts: number) {
    super(
      `The final answer did not match the output schema after ${attempts} attempt${attempts === 1 ? '' : 's'}:\n${lines.join('\n')}`,
    );
    this.lines = lines;
    this.attempts = attempts;
  }
}
