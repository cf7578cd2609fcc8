import { AgentcallError } from './agentcall.error';

/** Returned as `error` when a model stream went silent for longer than `requestOptions.timeout`. */
export class StreamIdleTimeoutError extends AgentcallError {
  static {
    this.defineName('StreamIdleTimeoutError');
  }

  constructor(readonly timeoutMs: number) {
    super(`The model stream sent nothing for ${timeoutMs} ms`);
  }
}
