import { median } from './harness';

/** How {@link measureBlocks} samples. */
export type BlockOptions = {
  /** Cycles: each runs every variant for one block. */
  cycles: number;
  /** Runs per block; the first of each is discarded, so a block keeps `blockRuns - 1` samples. */
  blockRuns: number;
  /** Seed of the shuffled block order, so a run of the script can be repeated. */
  seed: number;
};

/**
 * CPU microseconds of single runs of each variant, measured in blocks: a block runs one variant `blockRuns` times in
 * a row and keeps every run but the first, which pays for switching from another variant's code and data (a service
 * runs one loop, warm). Each cycle runs one block of every variant in a freshly shuffled order, so no variant always
 * follows the same other one, and drift on the machine reaches them all alike.
 */
export async function measureBlocks<K extends string>(
  variants: Record<K, () => Promise<unknown>>,
  { cycles, blockRuns, seed }: BlockOptions,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(variants) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const random = seededRandom(seed);
  for (let cycle = 0; cycle < cycles; cycle++) {
    for (const key of shuffled(keys, random)) {
      for (let run = 0; run < blockRuns; run++) {
        const start = process.cpuUsage();
        await variants[key]();
        const used = process.cpuUsage(start);
        if (run > 0) samples[key].push(used.user + used.system);
      }
    }
  }
  return samples;
}

/** A ratio of two samples' medians with its bootstrap 95% interval. */
export type RatioInterval = { ratio: number; low: number; high: number };

/**
 * `median(variant) / median(baseline)` and the 2.5th and 97.5th percentiles of the same ratio over `resamples`
 * bootstrap resamples of each side (seeded): how far the ratio could move if the runs were drawn again.
 */
export function medianRatioInterval(
  variant: readonly number[],
  baseline: readonly number[],
  { resamples = 1000, seed = 1 }: { resamples?: number; seed?: number } = {},
): RatioInterval {
  const random = seededRandom(seed);
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++)
    ratios.push(median(resample(variant, random)) / median(resample(baseline, random)));
  ratios.sort((a, b) => a - b);
  return {
    ratio: median(variant) / median(baseline),
    low: ratios[Math.floor(resamples * 0.025)],
    high: ratios[Math.ceil(resamples * 0.975) - 1],
  };
}

/** The value below which a fraction `q` of `values` lies (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))];
}

/** The arithmetic mean: with the rare slow run (a major GC) counted in full, where the median leaves it out. */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

function resample(values: readonly number[], random: () => number): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[Math.floor(random() * values.length)];
  return out;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** mulberry32: a small seeded generator, uniform in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
