/**
 * A scripted reply that cannot be served as written (e.g. `argumentChunks` that contradict `arguments`).
 *
 * The server never throws it at the test: it answers the request with HTTP 500 carrying this message, so the
 * mistake surfaces in the client under test instead of as an unhandled rejection inside the server.
 */
export class ScriptedReplyError extends Error {
  // A string, not the class identifier, so a minifier cannot rename it.
  static {
    Object.defineProperty(this, 'name', { value: 'ScriptedReplyError' });
  }

  constructor(message: string) {
    super(message);
    this.name = 'ScriptedReplyError';
  }
}

/**
 * The client went away before its request body was complete.
 *
 * Internal: the handler only needs it to stop waiting; there is no one left to answer.
 */
export class RequestAbortedError extends Error {
  // A string, not the class identifier, so a minifier cannot rename it.
  static {
    Object.defineProperty(this, 'name', { value: 'RequestAbortedError' });
  }

  constructor() {
    super('scripted server: client closed the connection before the request body was complete');
    this.name = 'RequestAbortedError';
  }
}

/**
 * The request body was larger than the server's `maxBodyBytes`; the request is answered with HTTP 413.
 *
 * Internal: it only tells the handler to stop reading and answer.
 */
export class RequestTooLargeError extends Error {
  // A string, not the class identifier, so a minifier cannot rename it.
  static {
    Object.defineProperty(this, 'name', { value: 'RequestTooLargeError' });
  }

  constructor(readonly limit: number) {
    super(`scripted server: request body exceeds the limit of ${limit} bytes`);
    this.name = 'RequestTooLargeError';
  }
}
