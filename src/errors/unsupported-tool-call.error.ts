import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when the model's only tool calls were of a type agentcall cannot run (anything but
 * `function` and `custom`): they were left out of the history, so the run could not go on.
 */
export class UnsupportedToolCallError extends AgentcallError {
  static {
    this.defineName('UnsupportedToolCallError');
  }

  constructor(readonly dropped: readonly { id?: string; type: string }[]) {
    super(
      `The model answered only with tool calls agentcall cannot run: ${dropped
        .map((d) => `${d.id ?? '(no id)'} of type "${d.type}"`)
        .join(', ')}. Only "function" and "custom" tool calls are run; give the model function or custom tools only.`,
    );
  }
}
