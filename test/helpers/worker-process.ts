import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A running {@link runWorker} process and what it has printed so far. */
export type WorkerProcess = {
  child: ChildProcess;
  /** Resolves with the exit code (or the signal that killed it) and everything printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves once a stdout line equals `line`. */
  printed(line: string): Promise<void>;
};

/** Start `test/helpers/run-state-worker.ts` in a new Node process (through ts-node) with `config` as its WORKER env. */
export function runWorker(config: object): WorkerProcess {
  const child = spawn(
    process.execPath,
    ['-r', require.resolve('ts-node/register/transpile-only'), join(__dirname, 'run-state-worker.ts')],
    { env: { ...process.env, WORKER: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const lines = stdout.split('\n');
    for (const waiter of waiters.splice(0)) {
      if (lines.includes(waiter.line)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    exited,
    printed: (line) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.split('\n').includes(line)) return resolve();
        waiters.push({ line, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`worker exited (${code ?? signal}) before printing "${line}": ${stderr}`)),
        );
      }),
  };
}
