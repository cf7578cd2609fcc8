import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

/** A raw HTTP request to the devtools server, with headers of our choosing (fetch would not let us set Host). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `path` on the devtools server at `url`, with its token. */
export function apiUrl(url: string, path: string): string {
  const base = new URL(url);
  const target = new URL(path, base);
  target.searchParams.set('token', base.searchParams.get('token') ?? '');
  return target.toString();
}

/** Poll `check` until it returns a value, or fail after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Run one test file (its text) with jest in a child process, `agentcall` and its entries mapped to the source
 * tree the way a user's project maps them to the package. Resolves with the exit code and the output.
 */
export async function runJestFile(text: string, name: string): Promise<{ code: number; output: string }> {
  const root = join(__dirname, '../..');
  const dir = mkdtempSync(join(root, 'test/devtools/.exported-'));
  try {
    writeFileSync(join(dir, name), text);
    const config = {
      rootDir: dir,
      testEnvironment: 'node',
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.ts$': [join(root, 'node_modules/ts-jest'), { tsconfig: join(root, 'tsconfig.json') }] },
      moduleNameMapper: { '^agentcall$': join(root, 'src/index.ts'), '^agentcall/(.*)$': join(root, 'src/$1') },
      moduleDirectories: ['node_modules', join(root, 'node_modules')],
    };
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(config), '--ci', '--colors=false'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
    return { code, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
