import { AgentcallError } from './agentcall.error';

/**
 * Returned as `error` when `runAgentLoop` has no client to send through and no key to build one with: no `client`,
 * no `userKey.key` and no `OPENAI_API_KEY`. The run ends at once with `stopReason: 'error'`; nothing is sent.
 *
 * @example
 * const result = await runAgentLoop({ body, tools }); // OPENAI_API_KEY unset
 * if (MissingCredentialsError.isInstance(result.error)) console.error(result.error.message);
 */
export class MissingCredentialsError extends AgentcallError {
  static {
    this.defineName('MissingCredentialsError');
  }

  constructor() {
    super(
      'No model client and no API key: pass `client: new OpenAI({ apiKey })`, or `userKey: { key }` ' +
        '(any non-empty key for a server that needs none), or set OPENAI_API_KEY',
    );
  }
}
