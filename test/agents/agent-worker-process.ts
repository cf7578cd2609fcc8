import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** A worker process of `fixtures/agent-worker.ts`, and how to wait for its lines, stop or kill it. */
export type AgentWorker = {
  line(prefix: string): Promise<string>;
  stop(): Promise<void>;
  kill(): Promise<void>;
};

const FIXTURE = join(__dirname, 'fixtures', 'agent-worker.ts');

/** Start `fixtures/agent-worker.ts` with `env` and wait until it takes jobs. */
export async function startAgentWorker(env: Record<string, string>): Promise<AgentWorker> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', FIXTURE], {
    env: { ...process.env, ...env, TS_NODE_PROJECT: join(__dirname, '..', '..', 'tsconfig.json') },
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
      void exited.then(() => reject(new Error(`worker exited before printing ${prefix}: ${stderr}`)));
    });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  await line('READY');
  return { line, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
}
