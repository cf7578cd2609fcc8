import { remoteAsked, retryParams } from '../../src/mcp/remote-ask-back';

const SCHEMA = { type: 'object', properties: { seat: { type: 'string' } } };

function asking(request: unknown, extra: Record<string, unknown> = {}) {
  return { resultType: 'input_required', inputRequests: { seat: request }, requestState: 'st', ...extra };
}

const form = (message: unknown, requestedSchema: unknown = SCHEMA) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema },
});

describe('what a remote server may ask a run to wait on', () => {
  it('keeps one form question: the message capped, the key and requestState beside it', () => {
    const asked = remoteAsked(asking(form('x'.repeat(10_000))), 'book', 32_768)!;
    expect(asked.interactive).toEqual({ type: 'mcp_input', message: expect.any(String), requestedSchema: SCHEMA });
    expect(String(asked.interactive!.message).length).toBeLessThanOrEqual(2_000);
    expect(asked.resumeData).toEqual({ inputKey: 'seat', requestState: 'st' });
  });

  it('leaves a complete result alone', () => {
    expect(remoteAsked({ content: [] }, 'book', 32_768)).toBeUndefined();
  });

  it.each([
    ['sampling', { method: 'sampling/createMessage', params: {} }],
    ['a URL elicitation', { method: 'elicitation/create', params: { mode: 'url', message: 'go', url: 'https://x' } }],
    ['a schema over the cap', form('m', { type: 'object', description: 'd'.repeat(500) })],
    ['no schema', form('m', null)],
  ])('refuses %s', (_what, request) => {
    expect(() => remoteAsked(asking(request), 'book', 200)).toThrow(/book asked/);
  });

  it('refuses several questions at once, a long key and a requestState over 64 KiB', () => {
    const two = { resultType: 'input_required', inputRequests: { a: form('a'), b: form('b') } };
    expect(() => remoteAsked(two, 'book', 32_768)).toThrow('book asked for 2 inputs at once');
    const longKey = { resultType: 'input_required', inputRequests: { ['k'.repeat(201)]: form('a') } };
    expect(() => remoteAsked(longKey, 'book', 32_768)).toThrow('over 200 characters');
    expect(() => remoteAsked(asking(form('a'), { requestState: 's'.repeat(65 * 1024) }), 'book', 32_768)).toThrow(
      'requestState',
    );
  });

  it('sends content only with accept, and checks what the state kept', () => {
    const kept = { inputKey: 'seat', requestState: 'st' };
    expect(retryParams({ action: 'decline', content: { seat: '1A' } }, kept)).toEqual({
      inputResponses: { seat: { action: 'decline' } },
      requestState: 'st',
    });
    expect(retryParams({ action: 'accept', content: { seat: '1A' } }, kept)).toEqual({
      inputResponses: { seat: { action: 'accept', content: { seat: '1A' } } },
      requestState: 'st',
    });
    expect(retryParams(undefined, kept)).toBeUndefined();
    expect(() => retryParams({ action: 'accept' }, { inputKey: 7 })).toThrow('no input key');
  });
});
