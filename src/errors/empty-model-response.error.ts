import { AgentcallError } from './agentcall.error';

/** Returned as `error` when the model answered with neither text nor tool calls. */
export class EmptyModelResponseError extends AgentcallError {
  static {
    this.defineName('EmptyModelResponseError');
  }

  constructor() {
    super('The model returned an empty response');
  }
}
