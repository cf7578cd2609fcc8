import { median, report } from './harness';
import { medianRatioInterval, quantile } from './per-run-samples';

/** CPU milliseconds per step of the median run, for runs of `stepsPerRun` model turns timed in microseconds. */
export function msPerStep(runs: readonly number[], stepsPerRun: number): number {
  return median(runs) / stepsPerRun / 1000;
}

/**
 * Print one variant's cost per step next to its baseline's: the ratio of the median runs with its bootstrap 95%
 * interval, and the ratio of the 10th percentiles. Returns the interval's upper end, what a budget is checked on.
 */
export function reportVersus(
  label: string,
  runs: readonly number[],
  baseline: readonly number[],
  stepsPerRun: number,
): number {
  const { ratio, low, high } = medianRatioInterval(runs, baseline);
  report(label, msPerStep(runs, stepsPerRun), 'ms', msPerStep(baseline, stepsPerRun));
  // The fastest tenth of runs: the least disturbed by the machine, the nearest to the work itself.
  const fast = quantile(runs, 0.1) / quantile(baseline, 0.1);
  console.log(
    `    ${ratio.toFixed(3)}×, 95% interval ${low.toFixed(3)}–${high.toFixed(3)}×; 10th percentiles ${fast.toFixed(3)}×`,
  );
  return high;
}
