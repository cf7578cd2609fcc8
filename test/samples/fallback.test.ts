import { checkFallback, worthRetryingLater } from '../../samples/fallback/fallback';
import type { RunAgentResponse } from '../../src';

describe('samples/fallback', () => {
  it('moves a rate-limited run to the backup model, resumes it there, and its assertions pass', async () => {
    await expect(checkFallback()).resolves.toBeUndefined();
  });

  it('says a run that failed with a rate limit is worth retrying later, and one refused with a 400 is not', () => {
    const failed = (status: number) =>
      ({ stopReason: 'error', error: Object.assign(new Error('failed'), { status }) }) as unknown as RunAgentResponse;
    expect(worthRetryingLater(failed(429))).toBe(true);
    expect(worthRetryingLater(failed(400))).toBe(false);
  });
});
