import { APIConnectionError } from 'openai';
import { isRetryableModelError } from '../../src/llm/retryable-error';
import { ModelConnectionError, type APIConnectionErrorClass } from '../../src/errors/model-connection.error';

/** What the SDK throws for a refused connection: its own error, with fetch's error and the socket's below it. */
function sdkError(Base: APIConnectionErrorClass = APIConnectionError): Error {
  const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  return new Base({ cause: new TypeError('fetch failed', { cause: socket }) });
}

describe('ModelConnectionError', () => {
  it('names the URL without credentials or query string, and what the connection said', () => {
    const error = new ModelConnectionError('http://bob:pw@127.0.0.1:9/v1/chat/completions?api-key=sk-x#f', sdkError());
    expect(error.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(error.message).toBe(
      'Connection error: could not reach http://127.0.0.1:9/v1/chat/completions (fetch failed: connect ECONNREFUSED 127.0.0.1:9)',
    );
    expect(String(error)).toMatch(/^ModelConnectionError: /);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.cause).toBeInstanceOf(APIConnectionError);
  });

  it('leaves credentials and query strings out of URLs quoted by a cause', () => {
    const fetchError = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: http://bob:pw@h/v1/responses?api-key=sk-x',
    );
    const error = new ModelConnectionError(
      'http://bob:pw@h/v1/responses',
      new APIConnectionError({ cause: fetchError }),
    );
    expect(error.message).not.toMatch(/bob|pw@|sk-x/);
    expect(error.message).toContain('credentials: http://h/v1/responses');
  });

  it("on another openai module's APIConnectionError (its ESM build, another copy): instanceof both holds", () => {
    class OtherAPIConnectionError extends Error {
      constructor({ message, cause }: { message?: string; cause?: Error }) {
        super(message ?? 'Connection error.', { cause });
      }
    }
    const error = ModelConnectionError.on(
      OtherAPIConnectionError,
      'http://h/v1/chat/completions',
      sdkError(OtherAPIConnectionError),
    );
    expect(error).toBeInstanceOf(OtherAPIConnectionError);
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(ModelConnectionError.isInstance(error)).toBe(true);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error.name).toBe('ModelConnectionError');
    expect(error.url).toBe('http://h/v1/chat/completions');
    expect(error.message).toContain('connect ECONNREFUSED');
    // One subclass per module, made once.
    const again = ModelConnectionError.on(OtherAPIConnectionError, 'http://h/v1/responses', sdkError());
    expect(Object.getPrototypeOf(again)).toBe(Object.getPrototypeOf(error));
    // The queue still retries it.
    expect(isRetryableModelError(error)).toBe(true);
  });

  it('is not every APIConnectionError', () => {
    expect(sdkError()).not.toBeInstanceOf(ModelConnectionError);
    expect(ModelConnectionError.isInstance(sdkError())).toBe(false);
    expect(ModelConnectionError.isInstance(null)).toBe(false);
  });
});
