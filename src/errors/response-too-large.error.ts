import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when a model response passed `maxResponseBytes` in all, or sent one SSE line longer than
 * `maxSseLineBytes`: the request is cut off there, and what arrived before is kept.
 */
export class ResponseTooLargeError extends AgentcallError {
  static {
    this.defineName('ResponseTooLargeError');
  }

  constructor(
    readonly limit: number,
    readonly what: 'response' | 'SSE line',
  ) {
    super(
      `The model ${what === 'response' ? 'response' : 'stream sent an SSE line that'} exceeds the limit of ${limit} bytes`,
    );
  }
}
