import { checkFallback } from '../../samples/fallback/fallback';

describe('samples/fallback', () => {
  it('moves a rate-limited run to the backup model, resumes it there, and its assertions pass', async () => {
    await expect(checkFallback()).resolves.toBeUndefined();
  });
});
