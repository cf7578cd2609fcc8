import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';

/** A scripted model server running in a child process. */
/** `pid`: the server process's, for benchmarks that count its CPU. */
export type BenchServer = { client: OpenAI; stop: () => void; pid?: number };

/** Start {@link ./server-process} and return a client for it. */
export async function startBenchServer(): Promise<BenchServer> {
  const child: ChildProcess = fork(join(__dirname, 'server-process.js'), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { baseURL: string }).baseURL));
    child.once('error', reject);
  });
  const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
  return { client, stop: () => child.disconnect(), pid: child.pid };
}

/** CPU microseconds (user + system) spent by this process while `fn` ran. */
export async function cpuMicros(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * Run each variant `rounds` times, interleaved so drift on the machine hits them alike, and return every
 * measurement of each, in round order. Each round starts one variant later than the last, so no variant always
 * runs right after the same other one and pays for the garbage it left.
 */
export async function measureRounds<K extends string>(
  variants: Record<K, () => Promise<number>>,
  rounds: number,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(variants) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(round + i) % keys.length];
      samples[key].push(await variants[key]());
    }
  }
  return samples;
}

/** {@link measureRounds}, reduced to the median measurement of each variant. */
export async function compare<K extends string>(
  variants: Record<K, () => Promise<number>>,
  rounds: number,
): Promise<Record<K, number>> {
  const samples = await measureRounds(variants, rounds);
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v as number[])])) as Record<K, number>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Print one result line: `label  value unit  (ratio× baseline)`. */
export function report(label: string, value: number, unit: string, baseline?: number): void {
  const ratio = baseline ? `  ${(value / baseline).toFixed(2)}× baseline` : '';
  console.log(`  ${label.padEnd(44)} ${value.toFixed(value < 10 ? 3 : 1).padStart(10)} ${unit}${ratio}`);
}

/** Start `n` copies of `fn` at once and wait for all of them: `n` concurrent runs in this process. */
export function concurrently<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}

/** Call `fn` `count` times, `parallel` calls at a time; resolves when the last has. */
export async function inParallel(count: number, parallel: number, fn: () => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        await fn();
      }
    }),
  );
}
