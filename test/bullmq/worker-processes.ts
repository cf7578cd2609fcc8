import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/** A worker process started by a test, and the lines it printed. */
export type WorkerProcess = {
  name: string;
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  /** Resolves with the first printed line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  /** SIGTERM and wait for the exit (the worker finishes its jobs). */
  stop(): Promise<void>;
  /** SIGKILL: a crash; the jobs it held stall. */
  kill(): Promise<void>;
  /** Resolves once the process has exited, however it ended. */
  exited: Promise<void>;
};

const FIXTURE = join(__dirname, 'fixtures', 'worker-process.ts');

/**
 * Start `fixture` (default `fixtures/worker-process.ts`; a `.js` one as it is) in a child process and wait until it takes jobs. A process that V8 itself
 * aborts while booting (a fatal check in its startup snapshot, before any of the worker's code ran) is started
 * once more: that is the machine's fault, not the queue's, and the test is about what happens after the start.
 */
export async function startWorker(
  name: string,
  env: Record<string, string>,
  fixture = FIXTURE,
): Promise<WorkerProcess> {
  try {
    return await spawnWorker(name, env, fixture);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('# Fatal error in')) throw error;
    return spawnWorker(name, env, fixture);
  }
}

async function spawnWorker(name: string, env: Record<string, string>, fixture: string): Promise<WorkerProcess> {
  // A bundled fixture (JavaScript) starts without compiling anything.
  const args = fixture.endsWith('.js') ? [fixture] : ['-r', 'ts-node/register/transpile-only', fixture];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, WORKER: name, TS_NODE_PROJECT: join(__dirname, '..', '..', 'tsconfig.json') },
  });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  let stderr = '';
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => line.startsWith(w.prefix))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen) return resolve(seen);
      waiters.push({ prefix, resolve });
      void exited.then(() => reject(new Error(`worker ${name} exited before printing ${prefix}: ${stderr}`)));
    });
  const worker: WorkerProcess = {
    name,
    child,
    lines,
    line,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  await line('READY');
  return worker;
}
