import { ResponseTooLargeError } from '../../src/errors/response-too-large.error';
import { ContentLimit } from '../../src/llm/response/content-limit';

describe('ContentLimit', () => {
  it('counts UTF-8 bytes of every kind together, and names the kind that passed the cap', () => {
    const limit = new ContentLimit(10);
    expect(limit.add('answer', 'abc')).toBeUndefined();
    expect(limit.add('reasoning', 'éé')).toBeUndefined();
    expect(limit.add('tool call', '')).toBeUndefined();
    expect(limit.total).toBe(7);
    expect(limit.add('arguments', '{"')).toBeUndefined();
    expect(limit.add('arguments', '}')).toBeUndefined();
    expect(limit.total).toBe(10);
    const error = limit.add('arguments', 'x');
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 10, what: 'response', part: 'arguments' });
    expect(error?.message).toBe('The model response exceeds the limit of 10 bytes');
  });
});
