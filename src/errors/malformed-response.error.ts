import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when a model endpoint answered with something its wire does not allow, on either wire: a
 * streamed request answered with a body that is not an event stream and holds no event (`expected an event stream,
 * got application/json: {…`, its content type and first 100 characters, masked), a Responses stream that ended
 * before its last event (`response.completed`, `response.incomplete` or `response.failed`), or a body that is not a
 * response of that wire. What arrived before is kept on the result.
 */
export class MalformedResponseError extends AgentcallError {
  static {
    this.defineName('MalformedResponseError');
  }

  constructor(readonly reason: string) {
    super(`The model endpoint sent a malformed response: ${reason}`);
  }
}
