/**
 * CPU milliseconds one call of `run` costs: repeated until `minMs` have passed, best of three rounds, so a busy
 * machine inflates both sides of a ratio alike instead of one sample.
 */
export function costOf(run: () => unknown, minMs = 15): number {
  run();
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    let calls = 0;
    const start = process.cpuUsage();
    let spent: number;
    do {
      run();
      calls++;
      const used = process.cpuUsage(start);
      spent = (used.user + used.system) / 1000;
    } while (spent < minMs);
    best = Math.min(best, spent / calls);
  }
  return best;
}

/**
 * How many times `large` costs what `small` costs, the least of `tries` ratios: a garbage collection that lands on
 * one side of a single ratio pushed linear readers from about 10 to 20-26 on a busy machine, while a quadratic one
 * reads about 100 every time.
 */
export function costRatio(large: () => unknown, small: () => unknown, tries = 5): number {
  let least = Infinity;
  for (let i = 0; i < tries; i++) least = Math.min(least, costOf(large) / costOf(small));
  return least;
}

/**
 * How much more the same operation costs on input `factor` times longer: about `factor` when it is linear,
 * about `factor²` when it is quadratic.
 */
export function growth(make: (n: number) => string, operation: (input: string) => unknown, n: number, factor = 10) {
  const small = make(n);
  const large = make(n * factor);
  return costRatio(
    () => operation(large),
    () => operation(small),
  );
}
