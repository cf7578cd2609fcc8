import fc from 'fast-check';
import { runCapped, type JobCap } from '../../src/toolCall/tool-concurrency';

describe('runCapped', () => {
  it('runs every job once, never more than the caps allow, and looks at each job once (any finishing order)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: -1, max: 2 }), { maxLength: 40 }),
        async (s, concurrency, limits, groupOfJob) => {
          const keys = limits.map(() => ({}));
          const caps: (JobCap | undefined)[] = groupOfJob.map((g) =>
            g < 0 || g >= limits.length ? undefined : { key: keys[g], limit: limits[g] },
          );
          const running = new Map<object | undefined, number>();
          const runs = new Array<number>(groupOfJob.length).fill(0);
          let total = 0;
          let capLookups = 0;
          const done = runCapped({
            count: groupOfJob.length,
            concurrency,
            capOf: (index) => {
              capLookups++;
              return caps[index];
            },
            run: async (index) => {
              runs[index]++;
              const key = caps[index]?.key;
              running.set(key, (running.get(key) ?? 0) + 1);
              total++;
              expect(total).toBeLessThanOrEqual(concurrency);
              if (caps[index]) expect(running.get(key)).toBeLessThanOrEqual(caps[index].limit);
              await s.schedule(Promise.resolve(), `job ${index}`);
              running.set(key, running.get(key)! - 1);
              total--;
            },
          });
          await s.waitFor(done);
          expect(runs.every((count) => count === 1)).toBe(true);
          expect(capLookups).toBe(groupOfJob.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('fills every free place: with no caps, min(concurrency, count) jobs run at once', async () => {
    let most = 0;
    let now = 0;
    await runCapped({
      count: 10,
      concurrency: 4,
      capOf: () => undefined,
      run: async () => {
        most = Math.max(most, ++now);
        await new Promise((resolve) => setImmediate(resolve));
        now--;
      },
    });
    expect(most).toBe(4);
  });
});
