import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when a chat-completions request was refused with a 400 that points to `/v1/responses`
 * (OpenAI's reasoning models refuse function tools there): the run must use `wire: 'responses'`. The SDK's
 * `APIError` is the `cause`. agentcall never retries on the other wire by itself.
 */
export class ResponsesWireRequiredError extends AgentcallError {
  static {
    this.defineName('ResponsesWireRequiredError');
  }

  /** The HTTP status of the refused request (400). */
  readonly status?: number;

  constructor(cause: Error & { status?: number }) {
    super(
      `The model refused the chat-completions request and points to /v1/responses: set wire: 'responses' ` +
        `(runAgentLoop or createLLMResponse) to use the Responses API. The endpoint said: ${cause.message}`,
      { cause },
    );
    this.status = cause.status;
  }
}
