import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/** Run `agentcall-devtools` from the source tree with `env`, until it prints a line matching `until` or exits. */
function runCli(
  args: string[],
  env: Record<string, string>,
  until: RegExp,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(root, 'src/devtools/cli.ts'), ...args],
      { cwd: root, env: { ...process.env, AGENTCALL_REDIS_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('agentcall-devtools', () => {
  it('says in --help that the Redis URL can come from AGENTCALL_REDIS_URL', async () => {
    const { code, output } = await runCli(['--help'], {}, /$^/);
    expect(code).toBe(0);
    expect(output).toMatch(/AGENTCALL_REDIS_URL +the Redis URL when --redis is not given/);
    expect(output).toMatch(/AGENTCALL_RUNS_SECRET/);
  }, 60_000);

  it('reads the Redis URL from AGENTCALL_REDIS_URL, so a password stays off the command line', async () => {
    // Nothing listens on port 1: the page starts all the same and reports Redis as unreachable.
    const { output } = await runCli([], { AGENTCALL_REDIS_URL: 'redis://:pw@127.0.0.1:1' }, /devtools: http/);
    expect(output).toMatch(/agentcall devtools: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{48}/);
    const without = await runCli([], {}, /$^/);
    expect(without.code).toBe(2);
    expect(without.output).toMatch(/^Usage: agentcall-devtools/);
  }, 60_000);
});
