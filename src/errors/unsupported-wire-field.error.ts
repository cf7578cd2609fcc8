import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` (before any request is sent) when a request body on the Responses wire holds a
 * chat-completions field the Responses API has no meaning for (`n` > 1, `logit_bias`, `stop`, `logprobs`, …):
 * dropping it silently would change what the caller asked for.
 */
export class UnsupportedWireFieldError extends AgentcallError {
  static {
    this.defineName('UnsupportedWireFieldError');
  }

  /** @param fields each offending field, as a path into the request (`stop`, `messages[2].content[0]`). */
  constructor(readonly fields: readonly string[]) {
    super(
      `The Responses wire cannot send ${fields.map((f) => `"${f}"`).join(', ')}: the Responses API has no such ` +
        `field. Remove ${fields.length > 1 ? 'them' : 'it'}, or set wire: 'chat' for a chat-completions endpoint.`,
    );
  }
}
