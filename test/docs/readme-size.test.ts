import { readFileSync } from 'node:fs';
import { join } from 'node:path';

describe('the README', () => {
  it('is one screen of orientation: at most 12,000 bytes, the rest in docs/', () => {
    expect(readFileSync(join(__dirname, '../../README.md')).length).toBeLessThanOrEqual(12_000);
  });
});
