import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `runAgentLoop`'s `fallback` list cannot be followed: not an array, an entry that is not an
 * object, a `model` that is not a non-empty string (a plain-JavaScript entry without one would otherwise send the
 * model name `"undefined"`), a `wire` that is not `'auto'`, `'chat'` or `'responses'`, or a `client` that is not an
 * object. The run ends at once with `stopReason: 'error'`; nothing runs.
 *
 * @example
 * const result = await runAgentLoop({ client, body, tools, fallback: [{ modle: 'gpt-5-mini' }] as FallbackEntry[] });
 * if (InvalidFallbackError.isInstance(result.error)) console.error(result.error.path); // 'fallback[0].model'
 */
export class InvalidFallbackError extends AgentcallError {
  static {
    this.defineName('InvalidFallbackError');
  }

  /** Where the problem is: `fallback`, `fallback[1].model`. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`Cannot follow this fallback list: ${path} ${problem}`);
    this.path = path;
  }
}
