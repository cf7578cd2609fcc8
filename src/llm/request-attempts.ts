/**
 * Counts the attempts the openai SDK makes for one request, so that its silent retries (of a 408, 409, 429, 5xx or a
 * failed connection) can be reported. The SDK builds every attempt anew, the first and each retry, and serializes
 * the request body for it (`JSON.stringify(body)`); the body agentcall hands over carries a non-enumerable `toJSON`
 * that counts those serializations. Nothing of the user's client is wrapped, copied or changed: its `fetch`,
 * logger and instrumentation see the request as before.
 *
 * Only serializations of the whole body (key `''`) after the SDK was handed the request ({@link arm}) count: a
 * `create` wrapper that serializes the body before passing it on, or a logger that serializes the SDK's request
 * details (where the body is under `body`), adds none. A client that never serializes the body (a stand-in) counts
 * no retry.
 *
 * @internal
 */
export class RequestAttempts {
  private attempts = 0;
  private armed = false;

  /** `body` with the counting `toJSON`; serialized, it is the same JSON as before. */
  track<Body extends object>(body: Body): Body {
    const count = (key: unknown): void => {
      if (key === '' && this.armed) this.attempts++;
    };
    Object.defineProperty(body, 'toJSON', {
      value(this: Body, key: unknown): Body {
        count(key);
        return this;
      },
      configurable: true,
    });
    return body;
  }

  /** The request was handed to the SDK: from now on each serialization is one attempt. */
  arm(): void {
    this.armed = true;
  }

  /** Attempts after the first. */
  get retries(): number {
    return Math.max(0, this.attempts - 1);
  }
}
