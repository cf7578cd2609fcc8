import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/**
 * Node, in a child process, with `bullmq` and `ioredis` made impossible to resolve (as in a project that never
 * installed them), running `script` from the source tree.
 */
function withoutQueuePackages(script: string): Promise<{ code: number | null; output: string }> {
  const preload = `
    const Module = require('node:module');
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (/^(bullmq|ioredis)(\\/|$)/.test(request)) {
        const error = new Error("Cannot find module '" + request + "'");
        error.code = 'MODULE_NOT_FOUND';
        throw error;
      }
      return resolve.call(this, request, ...rest);
    };`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', `${preload}\n${script}`], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('agentcall/devtools without bullmq and ioredis installed', () => {
  it('loads, records and serves in process; only agentcall/devtools/queue needs them', async () => {
    const loaded = await withoutQueuePackages(`
      const { createRunRecorder, startDevtools } = require('./src/devtools');
      (async () => {
        const recorder = createRunRecorder();
        const devtools = await startDevtools({ source: recorder.source });
        console.log('served ' + new URL(devtools.url).hostname);
        await devtools.close();
        try {
          require('./src/devtools/queue');
          console.log('queue loaded');
        } catch (error) {
          console.log('queue: ' + error.message);
        }
      })().catch((error) => { console.error(error); process.exitCode = 1; });
    `);
    expect(loaded.output).toContain('served 127.0.0.1');
    // The guard is real: the queue's source cannot load here.
    expect(loaded.output).toMatch(/queue: Cannot find module '(bullmq|ioredis)'/);
    expect(loaded.code).toBe(0);
  }, 120_000);
});
