import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, for memory assertions.
 *
 * `global.gc` exists when node runs with `--expose-gc`. Without the flag, turning it on at run time and reading
 * `gc` from a fresh vm context gives the same function (the flag is consulted when a context is created), so the
 * suite needs no special node options. `undefined` only if neither works.
 */
export function getGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Heap in use after letting pending callbacks run and collecting garbage (or, without a gc, churning allocations). */
export async function settledHeapUsed(): Promise<number> {
  const gc = getGc();
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (gc) gc();
    // Without a gc function, short-lived garbage pushes V8 into collecting; the bound then has to be generous.
    else for (let j = 0; j < 20; j++) new Array(100_000).fill(j);
  }
  return process.memoryUsage().heapUsed;
}
