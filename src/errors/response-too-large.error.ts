import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when a model response accumulated more than `maxResponseBytes` (answer text, reasoning and
 * tool calls, in UTF-8), sent one SSE line longer than `maxSseLineBytes`, or sent more bytes on the wire than the
 * guard against an endless stream allows (`what: 'wire'`): the request is cut off there, and what arrived before
 * is kept.
 */
export class ResponseTooLargeError extends AgentcallError {
  static {
    this.defineName('ResponseTooLargeError');
  }

  constructor(
    readonly limit: number,
    readonly what: 'response' | 'SSE line' | 'wire',
    /** For `what: 'response'`: the part whose text passed the limit. */
    readonly part?: 'answer' | 'reasoning' | 'arguments' | 'tool call',
  ) {
    super(
      what === 'response'
        ? `The model response exceeds the limit of ${limit} bytes`
        : what === 'SSE line'
          ? `The model stream sent an SSE line that exceeds the limit of ${limit} bytes`
          : `The model response exceeds the limit of ${limit} bytes on the wire`,
    );
  }
}
