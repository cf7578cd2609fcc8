import { signResumeToken, verifyResumeToken } from '../../src/bullmq/resume-token';

describe('resume tokens', () => {
  const secret = 'queue secret';

  it('verifies only for the exact subject it was signed for', () => {
    const token = signResumeToken(secret, { runId: 'r1', seq: 3, callIds: ['c1', 'c2'] });
    expect(verifyResumeToken(secret, token, { runId: 'r1', seq: 3, callIds: ['c1', 'c2'] })).toBe(true);
    expect(verifyResumeToken(secret, token, { runId: 'r1', seq: 3, callIds: ['c1'] })).toBe(false);
    expect(verifyResumeToken(secret, token, { runId: 'r2', seq: 3, callIds: ['c1', 'c2'] })).toBe(false);
    expect(verifyResumeToken('another', token, { runId: 'r1', seq: 3, callIds: ['c1', 'c2'] })).toBe(false);
  });

  it('length-prefixes every field: a token for run `a` never verifies for run `a\\n0`', () => {
    // Joined with `\n`, both subjects would sign the text `a\n0\n0\nc1`.
    const forA = signResumeToken(secret, { runId: 'a', seq: 0, callIds: ['0', 'c1'] });
    expect(verifyResumeToken(secret, forA, { runId: 'a\n0', seq: 0, callIds: ['c1'] })).toBe(false);
    const joined = signResumeToken(secret, { runId: 'r', seq: 1, callIds: ['c1\nc2'] });
    expect(verifyResumeToken(secret, joined, { runId: 'r', seq: 1, callIds: ['c1', 'c2'] })).toBe(false);
    const shifted = signResumeToken(secret, { runId: 'r', seq: 1, callIds: ['', 'c'] });
    expect(verifyResumeToken(secret, shifted, { runId: 'r', seq: 1, callIds: ['c', ''] })).toBe(false);
  });
});
