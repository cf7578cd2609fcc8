import { availableParallelism, loadavg } from 'node:os';

/**
 * A test's timeout is there to catch a hang, not to judge speed: on a busy machine it stretches by the load per
 * core (never below the time given), so whether a test passes does not depend on what else the machine runs.
 * Jest's default timeout (jest.config.ts) stretches the same way.
 */
export function stretchedTimeout(ms: number): number {
  return Math.round(ms * Math.max(1, loadavg()[0] / availableParallelism()));
}
