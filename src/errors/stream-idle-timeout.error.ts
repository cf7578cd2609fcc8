import { AgentcallError } from './agentcall.error';

/** Returned as `error` when a model stream went silent for longer than `requestOptions.timeout`. */
export class StreamIdleTimeoutError extends AgentcallError {
  constructor(readonly timeoutMs: number) {
    super(`The model stream sent nothing for ${timeoutMs} ms`);
  }
}
