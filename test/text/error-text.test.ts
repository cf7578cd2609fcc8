import { getErrText, maskSecrets } from '../../src/text/error-text';

describe('getErrText', () => {
  it.each([
    ['a string', 'plain', 'plain'],
    ['an Error', new Error('boom'), 'boom'],
    [
      'an axios-like error',
      { response: { data: { message: 'rate limited' } }, message: 'Request failed' },
      'rate limited',
    ],
    ['{ msg }', { msg: 'bad' }, 'bad'],
    ['{ error: string }', { error: 'nope' }, 'nope'],
    ['{ error: { message } }', { error: { message: 'inner' } }, 'inner'],
    ['{ code }', { code: 'ECONNREFUSED' }, 'ECONNREFUSED'],
    ['an errors array', { errors: [{ message: 'first' }] }, 'first'],
    ['a number', 404, '404'],
  ])('reads %s', (_label, input, expected) => {
    expect(getErrText(input)).toBe(expected);
  });

  it('falls back for nothing useful', () => {
    expect(getErrText(undefined)).toBe('Unknown error');
    expect(getErrText({}, 'fallback')).toBe('fallback');
  });

  it('keeps only the first line, so stack traces never leak', () => {
    const error = new Error('first line');
    expect(getErrText(`${error.stack}`)).toBe('Error: first line');
    expect(getErrText(new Error('a\n    at x (file.ts:1:1)'))).toBe('a');
  });

  it('survives throwing getters and proxies', () => {
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(getErrText(proxy)).toBe('Unknown error');
  });

  it('caps the length', () => {
    expect(getErrText('x'.repeat(5000))).toHaveLength(500);
  });
});

describe('maskSecrets', () => {
  it('masks URLs with credentials and query strings', () => {
    expect(maskSecrets('GET https://admin:hunter2@db.internal:5432/x?token=abc failed')).toBe(
      'GET https://[redacted] failed',
    );
    expect(maskSecrets('redis://user:pw@cache:6379')).toBe('redis://[redacted]');
  });

  it('masks API keys and bearer tokens', () => {
    const text = maskSecrets(
      'key sk-proj-abcdefghijklmnop1234 and Authorization: Bearer eyJhbGciOi.abc.def and api_key=xyz123',
    );
    expect(text).not.toMatch(/sk-proj|eyJhbGciOi|xyz123/);
    expect(text).toContain('[redacted-key]');
    expect(text).toBe('key [redacted-key] and Authorization: Bearer [redacted] and api_key=[redacted]');
    expect(maskSecrets('sent Bearer abc.def-123')).toBe('sent Bearer [redacted]');
  });

  it('leaves ordinary text alone', () => {
    expect(maskSecrets('City not found: Atlantis')).toBe('City not found: Atlantis');
  });
});
